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
        /// The whole run (LiteRT's "invoke" instrumentation event): every op and what lies between them.
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

    package init(name: String, place: Place, node: Int, run: Int, microseconds: Double) {
        self.name = name
        self.place = place
        self.node = node
        self.run = run
        self.microseconds = microseconds
    }

    /// The ops among LiteRT's events, each run starting at its "invoke" instrumentation event (type 16,
    /// kept as the run's `.run` entry);
    /// a delegate's node as a whole (the interpreter's event that encloses the delegate's ops) is left
    /// out, its ops are kept.
    static func ops(in events: [LiteRtProfiledEventData]) -> [ProfiledOp] {
        var ops: [ProfiledOp] = []
        var run = -1
        for e in events {
            let name = e.tag.map { String(cString: $0) } ?? ""
            switch e.event_type {
            case 16:
                run += 1
                ops.append(
                    ProfiledOp(name: name, place: .run, node: -1, run: run, microseconds: Double(e.elapsed_time_us)))
            case 2, 4, 8:
                if e.event_type == 2 && name.hasPrefix("TfLite") && name.hasSuffix("Delegate") { continue }
                ops.append(
                    ProfiledOp(
                        name: name, place: e.event_type == 2 ? .interpreter : .delegate,
                        node: Int(truncatingIfNeeded: e.event_metadata1), run: max(run, 0),
                        microseconds: Double(e.elapsed_time_us)))
            default:
                continue
            }
        }
        return ops
    }
}
