import VisionPipeline

/// Errors of the command-line layer, with the process exit code they give.
package enum CLIError: Error, CustomStringConvertible {
    /// Bad command line (exit 64).
    case usage(String)
    /// A task failed; exit with its MediaPipe error code.
    case task(code: Int, message: String)
    /// Anything else (exit 1).
    case failure(String)

    package var description: String {
        switch self {
        case .usage(let m): return "usage error: \(m)"
        case .task(_, let m): return m
        case .failure(let m): return m
        }
    }

    /// The exit status: 64 for usage, the task's error code (1…16) for task errors, 1 otherwise.
    package var exitCode: Int32 {
        switch self {
        case .usage: return ItemFailure.usageStatus
        case .task(let code, _): return Int32(code)
        case .failure: return 1
        }
    }
}
