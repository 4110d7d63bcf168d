import Foundation
import Imaging
import LiteRT
import MLKit
import MediaPipeTasksVision
import TFLiteModel
import VisionCore
import VisionPipeline
import VisionServer

/// The one place where an error becomes what the command line shows and its exit status: usage
/// errors (64, with where to find the usage), MediaPipe's and ML Kit's errors (their code; the core's
/// own errors as MediaPipe reports them), the lower layers' errors (1); with the command-line fix
/// for the conditions the libraries key by code (their messages name no flag).
package enum ErrorReport {
    /// The message lines for `error` raised by `command` (nil: before a command was known), and the exit status.
    package static func make(_ error: Error, command: String?, knownCommand: Bool) -> (lines: [String], status: Int32) {
        let (lines, status) = message(error, command: command, knownCommand: knownCommand)
        return (lines + hints(error), status)
    }

    private static func message(
        _ error: Error, command: String?, knownCommand: Bool
    ) -> (lines: [String], status: Int32) {
        switch error {
        case let e as CLIError:
            var lines = ["vision-tasks: \(e.description)"]
            if case .usage = e {
                lines.append(
                    "Run '\(knownCommand ? "vision-tasks \(command ?? "") --help" : "vision-tasks help")' for usage.")
            }
            return (lines, e.exitCode)
        case let e as PipelineError:
            switch e {
            case .usage(let m): return message(CLIError.usage(m), command: command, knownCommand: knownCommand)
            case .failure(let m): return message(CLIError.failure(m), command: command, knownCommand: knownCommand)
            }
        case let e as ServeError:
            return (["vision-tasks: \(e.message)"], 1)
        case let e as TasksError:
            return (["vision-tasks: error \(e.code) (\(TasksError.domain)): \(e.message)"], Int32(e.code))
        case let e as VisionCoreError:
            // The core raised it under a command that runs it directly (bench, inspect, metadata): as MediaPipe reports
            // it.
            return (
                ["vision-tasks: error \(e.code.rawValue) (\(TasksError.domain)): \(e.description)"],
                Int32(e.code.rawValue)
            )
        case let e as TFLiteModelError:
            return (["vision-tasks: \(e.message)"], 1)
        case let e as LiteRTError:
            return (["vision-tasks: \(e.description)"], 1)
        case let e as ImagingError:
            return (["vision-tasks: \(e.message)"], 1)
        case let e as NSError where e.domain.hasPrefix("com.google"):
            return (
                ["vision-tasks: error \(e.code) (\(e.domain)): \(e.localizedDescription)"],
                Int32(clamping: e.code > 0 && e.code < 64 ? e.code : 1)
            )
        default:
            return (["vision-tasks: \(error)"], 1)
        }
    }

    /// The command-line fixes for what `error` reports, keyed by the libraries' codes and conditions.
    package static func hints(_ error: Error) -> [String] {
        if let e = error as? TFLiteModelError, e.code == .normalizationMissing {
            return ["Give it with --mean M --std S (127.5 and 127.5 for inputs in [-1, 1])."]
        }
        if let e = error as? LiteRTError, e.code == .libraryNotFound { return [setup] }
        switch VisionCoreError.condition(of: error) {
        case .runtimeUnavailable: return [setup]
        case .labelsMissing:
            return [
                "Add labels with: vision-tasks metadata --model MODEL.tflite --labels labels.txt --output "
                    + "LABELED.tflite"
            ]
        case .normalizationMissing:
            return [
                "Add the normalization with: vision-tasks metadata --model MODEL.tflite --mean 127.5 --std 127.5 "
                    + "--output FIXED.tflite"
            ]
        case .yoloLayoutUnknown:
            return [
                "If the output is a YOLO head the rules cannot tell, name it: --head "
                    + YOLOOptions.Head.allCases.map(\.rawValue).joined(separator: "|")
            ]
        case .detectorMetadataMissing, nil:
            return []
        }
    }

    private static let setup = "In a VisionTasks checkout, 'make setup' fetches it."
}
