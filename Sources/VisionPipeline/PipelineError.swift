/// Errors of the pipeline (its inputs, outputs and runners): the caller's mistake, or a failure.
/// The command line shows them as its own (a usage error exits 64); the server answers them.
package enum PipelineError: Error, CustomStringConvertible, Sendable {
    /// What was asked cannot be done as given: no file matches a glob, a folder cannot be read,
    /// options that do not fit together, a line or zone the counter refuses.
    case usage(String)
    /// Anything else: an output that cannot be written, a file that cannot be resumed from.
    case failure(String)

    package var description: String {
        switch self {
        case .usage(let m): return "usage error: \(m)"
        case .failure(let m): return m
        }
    }
}
