import Foundation
import Testing
import VisionPipeline

@testable import VisionCLI

/// Runs `vision-tasks` in-process through a capturing ``Console``: nothing reaches the real standard
/// output or standard error (so nothing lands in the test log), and a test can assert what the
/// command printed as well as its exit status.
struct InProcessCLI {
    /// A finished run: its exit status and everything it wrote.
    struct Result {
        /// The exit status `VisionTasksCommand.main` returned.
        let status: Int32
        /// Everything written to standard output.
        let output: String
        /// Everything written to standard error.
        let error: String

        /// Standard output's lines, without their newlines (and without empty lines).
        var outputLines: [String] { output.split(separator: "\n").map(String.init) }
        /// Standard error's lines, without their newlines (and without empty lines).
        var errorLines: [String] { error.split(separator: "\n").map(String.init) }

        /// Standard output as one JSON object (what `--json` prints).
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        }
    }

    /// Runs the command line with `arguments` (without the program name) and returns its status and
    /// what it wrote to standard output and standard error.
    static func run(_ arguments: [String]) -> Result {
        let (console, captured) = Console.capturing()
        let status = VisionTasksCommand.main(arguments, console: console)
        return Result(status: status, output: captured.output, error: captured.error)
    }

    /// The standard error of a usage error in `command`: `message`, then where to find the usage.
    static func usageError(_ command: String, _ message: String) -> String {
        "vision-tasks: usage error: \(message)\nRun 'vision-tasks \(command) --help' for usage.\n"
    }
}
