import VisionPipeline

/// One worker's task instances — each its own copy of a model — by what they were made for (the
/// task, the model and the options a request gave), the least recently used dropped past `capacity`.
/// Used by its worker thread only.
package final class WorkerTasks {
    private var tasks: [String: (task: BatchTask, used: Int)] = [:]
    private var clock = 0
    private let capacity: Int

    package init(capacity: Int = 8) { self.capacity = max(1, capacity) }

    /// The task made for `key`, made now with `make` when this worker has none.
    package func task(_ key: String, make: () throws -> BatchTask) throws -> BatchTask {
        clock += 1
        if let found = tasks[key] {
            tasks[key] = (found.task, clock)
            return found.task
        }
        return try store(key, try make())
    }

    /// The task of type `Task` made for `key` (keys name the task's kind: one found of another type is
    /// made anew).
    package func task<Task: BatchTask>(_ key: String, as _: Task.Type, make: () throws -> Task) throws -> Task {
        clock += 1
        if let found = tasks[key], let task = found.task as? Task {
            tasks[key] = (task, clock)
            return task
        }
        return try store(key, try make())
    }

    private func store<Task: BatchTask>(_ key: String, _ task: Task) throws -> Task {
        if tasks.count >= capacity, let oldest = tasks.min(by: { $0.value.used < $1.value.used })?.key {
            tasks[oldest] = nil
        }
        tasks[key] = (task, clock)
        return task
    }

    /// How many task instances this worker holds.
    package var count: Int { tasks.count }
}
