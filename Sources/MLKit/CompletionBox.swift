import Dispatch

/// Carries a caller's completion (not `@Sendable`, as iOS code writes it) to the queue that calls it.
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
}
