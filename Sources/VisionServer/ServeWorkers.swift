import Foundation
import VisionPipeline

/// The server's inference workers: a bounded queue of jobs and `count` threads, each with its own
/// task instances (``WorkerTasks``: its own model copies, as the batch pipeline's workers have). A job
/// that waits past its deadline is answered as expired by a watcher thread, without running; a full
/// queue refuses new jobs at once (the caller answers 503), so memory never grows with load.
// @unchecked Sendable: every mutable field is read and written only while holding `condition`.
package final class ServeWorkers: @unchecked Sendable {
    /// One piece of work.
    package struct Job: Sendable {
        /// When it expires (uptime nanoseconds).
        package var deadline: UInt64
        /// Runs on a worker thread with that worker's tasks.
        package var run: @Sendable (WorkerTasks) -> Void
        /// Called instead of `run` when the deadline passes while the job waits.
        package var expired: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private let capacity: Int
    private var running = 0
    private var accepting = true
    private var stopped = false
    private var threads: [Thread] = []

    /// Starts `count` workers, each making its tasks with `makeTasks` (on its own thread), and the
    /// deadline watcher. At most `capacity` jobs wait.
    package init(count: Int, capacity: Int, makeTasks: @escaping @Sendable () -> WorkerTasks) {
        self.capacity = max(1, capacity)
        for i in 0..<max(1, count) {
            let thread = Thread { [self] in work(makeTasks()) }
            thread.name = "serve-worker-\(i)"
            threads.append(thread)
        }
        let watcher = Thread { [self] in watch() }
        watcher.name = "serve-deadlines"
        threads.append(watcher)
        threads.forEach { $0.start() }
    }

    /// Jobs waiting.
    package var depth: Int { condition.withLock { queue.count - head } }
    /// Jobs running.
    package var inFlight: Int { condition.withLock { running } }

    /// Queues `job`; false when the queue is full or the workers are draining (the caller refuses).
    package func submit(_ job: Job) -> Bool {
        condition.withLock {
            guard accepting, queue.count - head < capacity else { return false }
            queue.append(job)
            condition.broadcast()
            return true
        }
    }

    /// Stops taking jobs and waits until those queued and running are done (at most `timeout`
    /// seconds; jobs still waiting then are answered as expired). Returns whether all finished.
    package func drain(timeout: TimeInterval) -> Bool {
        let limit = Date().addingTimeInterval(timeout)
        condition.lock()
        accepting = false
        while (queue.count - head > 0 || running > 0) && Date() < limit { _ = condition.wait(until: limit) }
        let left = Array(queue[head...])
        queue.removeAll()
        head = 0
        let finished = left.isEmpty && running == 0
        stopped = true
        condition.broadcast()
        condition.unlock()
        left.forEach { $0.expired() }
        return finished
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head == 0 && !stopped { condition.wait() }
        if stopped && queue.count - head == 0 { return nil }
        let job = queue[head]
        head += 1
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        running += 1
        return job
    }

    private func work(_ tasks: WorkerTasks) {
        while let job = next() {
            if DispatchTime.now().uptimeNanoseconds > job.deadline {
                job.expired()
            } else {
                job.run(tasks)
            }
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
    }

    /// Answers jobs whose deadline passed while they waited (the queue is in deadline order: every
    /// job has the same timeout).
    private func watch() {
        condition.lock()
        while !stopped {
            guard queue.count - head > 0 else {
                condition.wait()
                continue
            }
            let now = DispatchTime.now().uptimeNanoseconds
            let first = queue[head]
            if first.deadline <= now {
                head += 1
                condition.unlock()
                first.expired()
                condition.lock()
                continue
            }
            let wait = Double(first.deadline - now) / 1e9
            _ = condition.wait(until: Date().addingTimeInterval(min(wait, 1)))
        }
        condition.unlock()
    }
}
