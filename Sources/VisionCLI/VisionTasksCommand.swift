import Foundation
import MediaPipeTasksVision

/// The `vision-tasks` program: parses the command line and runs a command.
public enum VisionTasksCommand {
    static let usage = """
    vision-tasks — MediaPipe-compatible vision tasks on Linux (LiteRT).

    Usage:
      vision-tasks detect --model MODEL.tflite IMAGE|FOLDER... [options]
      vision-tasks classify --model MODEL.tflite IMAGE... [--max-results 5] [--score-threshold F|model] [--allow/--deny NAMES]
                            [--roi x,y,w,h] [--locale L] [--orientation O] [--json]
      vision-tasks label --model CLASSIFIER.tflite IMAGE... [--threshold F] [--max-results N] [--orientation O] [--json]   (ML Kit's rules)
      vision-tasks track VIDEO [--model CLASSIFIER.tflite] [--jsonl OUT.jsonl] [--output ANNOTATED.mp4] [--max-objects N] [--single]
                         [--threshold F] [--max-labels N] [--detections-jsonl DETS.jsonl] [--localizer DETECTOR.tflite]   (ML Kit's stream mode)
      vision-tasks bench  --model MODEL.tflite --image IMAGE [--task detect|classify|label] [--runs 50] [--warmup 5] [--threads 1] [--json]
      vision-tasks inspect MODEL.tflite
      vision-tasks soak   --model MODEL.tflite [--cycles 300] [--json]   (leak check)
      vision-tasks metadata --model RAW_SSD.tflite --output OUT.tflite (--blazeface-short-range | --anchor-strides 8,16,… [--anchor-*])
                            [--num-classes N] [--keypoints K] [--box-scale S] [--no-exp-box-size] [--labels FILE] [--mean M --std S]

    detect options:
      --output PATH          annotated picture (one image) or folder (several); default: none
      --max-results N        at most N detections (-1 = all)
      --score-threshold F    keep detections scoring at least F (default 0, as on iOS; 'model': the model's own)
      --allow NAMES          only these labels (comma list); --deny NAMES: not these
      --locale L             display-name locale (default en)
      --orientation O        up|down|left|right (default: the file's EXIF orientation)
      --threads N            CPU threads (default 1)
      --fast-hybrid          run hybrid int8-weight models' depthwise convolutions in float (faster; not bit-identical to MediaPipe)
      --json                 one JSON object per image instead of text

    Exit status: 0 on success, 64 for a bad command line, else MediaPipe's error code (3 = invalid argument, 5 = not found…).
    """

    /// Runs with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(usage)  // `COMMAND --help`: the usage page, whatever else is on the line
            return 0
        }
        do {
            switch command {
            case "detect": try DetectCommand.run(rest)
            case "classify": try ClassifyCommand.run(rest)
            case "label": try LabelCommand.run(rest)
            case "track": try TrackCommand.run(rest)
            case "bench": try BenchCommand.run(rest)
            case "inspect": try InspectCommand.run(rest)
            case "soak": try SoakCommand.run(rest)
            case "metadata": try MetadataCommand.run(rest)
            case "help", "--help", "-h":
                print(usage)
            default:
                throw CLIError.usage("unknown command '\(command)'")
            }
            return 0
        } catch let e as CLIError {
            FileHandle.standardError.write(Data("vision-tasks: \(e.description)\n".utf8))
            if case .usage = e { FileHandle.standardError.write(Data("Run 'vision-tasks help' for usage.\n".utf8)) }
            return e.exitCode
        } catch let e as TasksError {
            FileHandle.standardError.write(Data("vision-tasks: error \(e.code) (\(TasksError.domain)): \(e.message)\n".utf8))
            return Int32(e.code)
        } catch {
            FileHandle.standardError.write(Data("vision-tasks: \(error)\n".utf8))
            return 1
        }
    }
}
