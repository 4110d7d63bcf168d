import Foundation
import LiteRT
import MediaPipeTasksVision

/// The one place where an error becomes what the command line shows and its exit status: usage
/// errors (64, with where to find the usage), MediaPipe's and ML Kit's errors (their code), anything
/// else (1); with the command-line fix when there is one (the libraries name none).
enum ErrorReport {
    /// The message lines for `error` raised by `command` (nil: before a command was known), and the exit status.
    static func make(_ error: Error, command: String?, knownCommand: Bool) -> (lines: [String], status: Int32) {
        switch error {
        case let e as CLIError:
            var lines = ["vision-tasks: \(e.description)"]
            if case .usage = e { lines.append("Run '\(knownCommand ? "vision-tasks \(command ?? "") --help" : "vision-tasks help")' for usage.") }
            return (lines + hints(e.description), e.exitCode)
        case let e as TasksError:
            return (["vision-tasks: error \(e.code) (\(TasksError.domain)): \(e.message)"] + hints(e.message), Int32(e.code))
        case let e as NSError where e.domain.hasPrefix("com.google"):
            return (
                ["vision-tasks: error \(e.code) (\(e.domain)): \(e.localizedDescription)"] + hints(e.localizedDescription),
                Int32(clamping: e.code > 0 && e.code < 64 ? e.code : 1)
            )
        default:
            return (["vision-tasks: \(error)"] + hints("\(error)"), 1)
        }
    }

    /// One failed input, as the batch runner and `inspect` print it.
    static func line(_ failure: ItemFailure, source: String? = nil) -> String {
        (source.map { "\($0): " } ?? "") + "error \(failure.code) (\(failure.domain)): \(failure.message)"
    }

    /// The command-line fixes for what a message says.
    static func hints(_ message: String) -> [String] {
        var hints: [String] = []
        if message.contains("TENSOR_AXIS_LABELS") {
            hints.append("Add labels with: vision-tasks metadata --model MODEL.tflite --labels labels.txt --output LABELED.tflite")
        }
        if message.contains("libLiteRt.so was not found") {
            hints.append("In a VisionTasks checkout, 'make setup' fetches it.")
        }
        return hints
    }
}
