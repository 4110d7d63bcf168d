import CLiteRT

/// One op's time in one run, as LiteRT's profiler recorded it.
package struct ProfiledOp: Sendable, Equatable {
    /// Where the op ran.
    package enum Place: Sendable, Equatable {
        /// Inside the XNNPACK delegate (`name` is XNNPACK's operator name, e.g.
        /// "Convolution (NHWC, QU8) DWConv").
        case delegate
        /// On the interpreter: a built-in kernel, a custom op (VisionTasks' kernels: `name` is the
        /// custom code's kernel), or the delegate's own node as a whole.
        case interpreter
        /// The whole run (the interpreter's "Invoke" event): every op and what lies between them.
        case run
    }

    /// The op's name as the profiler tags it.
    package let name: String
    package let place: Place
    /// The node's index (in the delegate's graph for `.delegate`, in the model's for `.interpreter`).
    package let node: Int
    /// Which run it belongs to (0 for the first run profiled).
    package let run: Int
    /// Elapsed microseconds.
    package let microseconds: Double
    /// Which of the delegate's partitions (in the order the run met them) a `.delegate` op is in; 0 otherwise.
    package let partition: Int

    package init(name: String, place: Place, node: Int, run: Int, microseconds: Double, partition: Int = 0) {
        self.name = name
        self.place = place
        self.node = node
        self.run = run
        self.microseconds = microseconds
        self.partition = partition
    }

    /// The ops among LiteRT's events, each run starting at the interpreter's "Invoke" event (type 1,
    /// kept as the run's `.run` entry: every op and what lies between them); the delegate's partitions
    /// are told apart by their node indices starting again.
    static func ops(in events: [LiteRtProfiledEventData]) -> [ProfiledOp] {
        var ops: [ProfiledOp] = []
        var run = -1, partition = -1, lastDelegateNode = Int.max, previousWasDelegate = false
        for e in events {
            let name = e.tag.map { String(cString: $0) } ?? ""
            let node = Int(truncatingIfNeeded: e.event_metadata1)
            switch e.event_type {
            case 1 where name == "Invoke":
                run += 1
                partition = -1
                previousWasDelegate = false
                ops.append(
                    ProfiledOp(name: name, place: .run, node: -1, run: run, microseconds: Double(e.elapsed_time_us)))
            case 2:
                previousWasDelegate = false
                ops.append(
                    ProfiledOp(
                        name: name, place: .interpreter, node: node, run: max(run, 0),
                        microseconds: Double(e.elapsed_time_us)))
            case 4, 8:
                if !previousWasDelegate || node <= lastDelegateNode { partition += 1 }
                previousWasDelegate = true
                lastDelegateNode = node
                ops.append(
                    ProfiledOp(
                        name: name, place: .delegate, node: node, run: max(run, 0),
                        microseconds: Double(e.elapsed_time_us), partition: max(partition, 0)))
            default:
                continue
            }
        }
        return ops
    }
}
