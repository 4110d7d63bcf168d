import Locking

/// The async sequences of one task's live-stream results (a Linux extension beside the delegate):
/// each sequence gets, in timestamp order, every result delivered after it was made, until
/// ``finish()`` or the task's release ends it.
final class LiveStreamResults<Element: Sendable>: Sendable {
    private let state = Locked<(next: Int, continuations: [Int: AsyncStream<Element>.Continuation])>((0, [:]))

    /// A new sequence (results are buffered until read: none is lost).
    func makeStream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `element` to every sequence (called on the task's serial callback queue).
    func yield(_ element: Element) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(element) }
    }

    /// Ends every sequence made so far.
    func finish() {
        let ended = state.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        ended.forEach { $0.finish() }
    }

    deinit { finish() }
}
