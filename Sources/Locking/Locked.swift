import Foundation

/// A value that is read and written only while holding a lock: the shared state of the package's
/// Sendable classes. It has `Synchronization.Mutex`'s shape (`withLock`, values `sending` in and
/// out), but waits on a pthread mutex (`NSLock`), which ThreadSanitizer understands: on Linux,
/// `Mutex` waits with futex calls that it does not see, so a contended `Mutex` reads as a data race
/// and real races could hide among such reports.
// @unchecked Sendable: `value` is read and written only inside `withLock`, while `lock` is held, and
// what leaves the lock is `sending` (checked by the compiler, as for `Mutex`).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: sending Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked {
    /// The value made by `make` the first time (under the lock, so once), then the same one.
    package func value<Wrapped>(orMake make: () throws -> Wrapped) rethrows -> Wrapped
    where Value == Wrapped?, Wrapped: Sendable {
        try withLock { value in
            if let value { return value }
            let made = try make()
            value = made
            return made
        }
    }
}
