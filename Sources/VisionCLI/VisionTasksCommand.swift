import Foundation
import MediaPipeTasksVision

/// The `vision-tasks` program: the commands, declared once, and the dispatch.
public enum VisionTasksCommand {
    static let inputs = "INPUT..."
    static let inputHelp = "pictures (.jpg, .png), videos (.mp4, .mkv, .mov, .webm …), folders (searched recursively, sorted), globs ('photos/*.jpg'), or - to read paths from standard input"

    static let commands: [CommandSpec] = [
        CommandSpec(name: "detect", summary: "find objects with MediaPipe's ObjectDetector", positionals: inputs, positionalHelp: inputHelp, count: 0...Int.max,
                    options: TaskOptions.mediaPipe + RunOptions.all,
                    notes: "Example: vision-tasks detect --model efficientdet.tflite photos/ --output out/ --report out/report.html") { p in
            try TaskCommand.run(p) { try DetectTask($0) }
        },
        CommandSpec(name: "classify", summary: "classify pictures with MediaPipe's ImageClassifier", positionals: inputs, positionalHelp: inputHelp, count: 0...Int.max,
                    options: TaskOptions.mediaPipe + [TaskOptions.roi] + RunOptions.all,
                    notes: "Example: vision-tasks classify --model mobilenet_v2.tflite burger.jpg --max-results 3") { p in
            try TaskCommand.run(p) { try ClassifyTask($0) }
        },
        CommandSpec(name: "label", summary: "label pictures with ML Kit's image labeling (custom model)", positionals: inputs, positionalHelp: inputHelp, count: 0...Int.max,
                    options: LabelTask.options + RunOptions.all,
                    notes: "ML Kit's rules: the model's threshold unless --threshold, at most 10 labels unless --max-results.") { p in
            try TaskCommand.run(p) { try LabelTask($0) }
        },
        CommandSpec(name: "track", summary: "detect, track and classify objects with ML Kit (stream mode on videos)", positionals: inputs, positionalHelp: inputHelp,
                    count: 0...Int.max, options: TrackTask.options + RunOptions.all,
                    notes: "Videos get tracking IDs (stream mode); pictures are processed in single-image mode.\nExample: vision-tasks track clip.mp4 --model classifier.tflite --jsonl tracks.jsonl --output out/") { p in
            try TaskCommand.run(p) { try TrackTask($0) }
        },
        InspectCommand.spec,
        MetadataCommand.spec,
        ModelsCommand.spec,
        BenchCommand.spec,
        SoakCommand.spec,
    ]

    /// The usage page, generated from the declarations.
    static var usage: String {
        var lines = ["vision-tasks — MediaPipe Tasks Vision and ML Kit vision on Linux (LiteRT).", "", "Usage: vision-tasks COMMAND [options]", "", "Commands:"]
        for c in commands { lines.append("  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary) }
        lines += ["", "Run 'vision-tasks COMMAND --help' for a command's options.",
                  "Exit status: 0 on success, 64 for a bad command line, else the task's error code (3 = invalid argument, 5 = not found …)."]
        return lines.joined(separator: "\n")
    }

    /// Runs with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            print(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        do {
            if ["help", "--help", "-h"].contains(name) {
                if let topic = rest.first {
                    guard let c = commands.first(where: { $0.name == topic }) else { throw unknown(topic) }
                    print(c.help)
                } else {
                    print(usage)
                }
                return 0
            }
            guard let command = commands.first(where: { $0.name == name }) else { throw unknown(name) }
            if rest.contains("--help") || rest.contains("-h") {
                print(command.help)
                return 0
            }
            try command.run(try ParsedCommand(command, rest))
            return 0
        } catch let e as CLIError {
            FileHandle.standardError.write(Data("vision-tasks: \(e.description)\n".utf8))
            if case .usage = e {
                let more = commands.contains { $0.name == name } ? "vision-tasks \(name) --help" : "vision-tasks help"
                FileHandle.standardError.write(Data("Run '\(more)' for usage.\n".utf8))
            }
            return e.exitCode
        } catch let e as TasksError {
            FileHandle.standardError.write(Data("vision-tasks: error \(e.code) (\(TasksError.domain)): \(e.message)\n".utf8))
            return Int32(e.code)
        } catch let e as NSError where e.domain.hasPrefix("com.google") {
            FileHandle.standardError.write(Data("vision-tasks: error \(e.code) (\(e.domain)): \(e.localizedDescription)\n".utf8))
            return Int32(clamping: e.code > 0 && e.code < 64 ? e.code : 1)
        } catch {
            FileHandle.standardError.write(Data("vision-tasks: \(error)\n".utf8))
            return 1
        }
    }

    static func unknown(_ name: String) -> CLIError {
        let hint = Suggestion.closest(to: name, in: commands.map(\.name)).map { " — did you mean '\($0)'?" } ?? ""
        return CLIError.usage("unknown command '\(name)'\(hint)")
    }
}
