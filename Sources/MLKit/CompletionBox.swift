/// Carries a caller's completion (not `@Sendable`, as iOS code writes it) to the queue that calls it.
struct CompletionBox<Result>: @unchecked Sendable {
    let completion: (Result?, Error?) -> Void
    init(_ completion: @escaping (Result?, Error?) -> Void) { self.completion = completion }
}
