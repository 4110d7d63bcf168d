import Dispatch

/// Carries a caller's completion (not `@Sendable`, as iOS code writes it) to the queue that calls it.
// @unchecked Sendable: the completion is called once, on the one `deliver` queue, and touched
// nowhere else — the contract of ML Kit's completion handlers on iOS (called once, on the main queue).
struct CompletionBox<Result: Sendable>: @unchecked Sendable {
    let completion: (Result?, Error?) -> Void
    init(_ completion: @escaping (Result?, Error?) -> Void) { self.completion = completion }

    /// Runs `body` on `work`, then calls the completion once, on `deliver`, with its result or its
    /// error (as iOS calls ML Kit completions once, on the main queue).
    func run(on work: DispatchQueue, deliver: DispatchQueue, _ body: @escaping @Sendable () throws -> Result) {
        work.async {
            do {
                let result = try body()
                deliver.async { self.completion(result, nil) }
            } catch {
                deliver.async { self.completion(nil, error) }
            }
        }
    }

    /// Runs `body` on `work` and returns its result to an `async` caller (the form iOS gives
    /// `process(_:completion:)` in Swift: `try await detector.process(image)`).
    static func value(on work: DispatchQueue, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            work.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
