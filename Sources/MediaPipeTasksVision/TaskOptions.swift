import Foundation

/// Options common to all tasks (`MPPTaskOptions`). `copy()` gives an independent copy of the same
/// class, and a task reads its options once, when it is created.
open class TaskOptions: NSObject, NSCopying {
    /// Model and processor choice. Assigning stores a copy, as iOS's `copy` property.
    @NSCopying public var baseOptions = BaseOptions()

    /// Default options.
    public required override init() {}

    /// An independent copy of the same class with the same option values.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c.baseOptions = baseOptions
        return c
    }
}
