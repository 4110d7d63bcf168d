import Foundation
import Imaging
import MediaPipeTasksVision

/// How a task command runs over its inputs, parsed once: the inputs, every Nth video frame, the
/// pictures' orientation, the pipeline's workers, the shard.
package struct BatchConfig: Sendable {
    package var inputs: [String] = []
    package var every = 1
    package var orientation: UIImage.Orientation?
    package var sequential = false
    package var workers: Int?
    /// Each worker's inference threads (to size the default worker count).
    package var threads = 1
    package var shard: String?
    package var shardCount: Int?
    /// The model's name, for the report.
    package var model = ""

    package init() {}

    /// The task copies for a run: `workers` (default: the CPUs divided by the threads, so that the
    /// workers' inference threads fill the machine once), one when sequential or when the task is
    /// stateful, and no more than `items` can keep busy (a video counts as many).
    package func tasks(items: [InputItem]?, _ make: () throws -> BatchTask) throws -> [BatchTask] {
        let first = try make()
        if first.isStateful || sequential { return [first] }
        var count = workers ?? max(1, min(8, ProcessInfo.processInfo.activeProcessorCount / max(1, threads)))
        if let items, !items.contains(where: { $0.kind == .video }) { count = min(count, max(1, items.count)) }
        return try [first] + (1..<max(1, count)).map { _ in try make() }
    }
}
