/// The processor a task runs on (`MPPDelegate`, an `NSUInteger` enum on iOS).
public enum Delegate: UInt, Sendable {
    /// The CPU (XNNPACK). The only delegate on Linux.
    case CPU = 0
    /// The GPU: not available on Linux; tasks created with it throw an unimplemented error.
    case GPU = 1
}
