/// Options common to all tasks.
open class TaskOptions: @unchecked Sendable {
    /// Model and processor choice. Never nil.
    public var baseOptions = BaseOptions()

    /// Default options.
    public init() {}
}
