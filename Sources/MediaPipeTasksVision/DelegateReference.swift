/// A task's live-stream delegate, held weakly as MediaPipe's iOS tasks hold theirs.
// @unchecked Sendable: the reference is set once, when the task is created, and the task calls the
// delegate only on its one serial callback queue (MediaPipe's contract for live-stream delegates), so
// a delegate that is not itself Sendable — a view controller, say — is never called from two threads.
final class DelegateReference: @unchecked Sendable {
    private weak var object: AnyObject?

    init(_ object: AnyObject?) { self.object = object }

    /// The delegate, while it exists, as the task's delegate protocol.
    func delegate<Delegate>(as _: Delegate.Type) -> Delegate? { object as? Delegate }
}
