import Foundation
import MediaPipeTasksVision
import VisionPipeline

/// The `vision-tasks` program: the commands, declared once, and the dispatch.
package enum VisionTasksCommand {
    static let inputs = "INPUT..."
    static let inputHelp =
        "pictures (.jpg, .png), videos (.mp4, .mkv, .mov, .webm …), folders (searched recursively, sorted), globs "
        + "('photos/*.jpg'), or - to read paths from standard input"

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "detect", summary: "find objects with MediaPipe's ObjectDetector", positionals: inputs,
            positionalHelp: inputHelp, count: 0...Int.max,
            options: TaskArguments.mediaPipe + TaskArguments.yolo + RunArguments.all,
            notes:
                "Example: vision-tasks detect --model efficientdet.tflite photos/ --output out/ --report "
                + "out/report.html\nYOLO models (Ultralytics' .tflite exports) "
                + "work as they are: letterboxed input, their class names, NMS at --iou; scores at least 0.25 unless "
                + "--score-threshold is given."
        ) { p, console in
            let config = try MediaPipeTaskConfig(p)
            try TaskCommand.run(p, console) { try DetectTask(config) }
        },
        CommandSpec(
            name: "classify", summary: "classify pictures with MediaPipe's ImageClassifier", positionals: inputs,
            positionalHelp: inputHelp, count: 0...Int.max,
            options: TaskArguments.mediaPipe + [TaskArguments.roi] + RunArguments.all,
            notes: "Example: vision-tasks classify --model mobilenet_v2.tflite burger.jpg --max-results 3"
        ) { p, console in
            let config = try MediaPipeTaskConfig(p, regionOfInterest: true)
            try TaskCommand.run(p, console) { try ClassifyTask(config) }
        },
        CommandSpec(
            name: "label", summary: "label pictures with ML Kit's image labeling (custom model)", positionals: inputs,
            positionalHelp: inputHelp,
            count: 0...Int.max,
            options: TaskArguments.label + RunArguments.all,
            notes: "ML Kit's rules: the model's threshold unless --threshold, at most 10 labels unless --max-results."
        ) { p, console in
            let config = try LabelConfig(p)
            try TaskCommand.run(p, console) { try LabelTask(config) }
        },
        CommandSpec(
            name: "track", summary: "detect, track and classify objects with ML Kit (stream mode on videos)",
            positionals: inputs, positionalHelp: inputHelp,
            count: 0...Int.max, options: TaskArguments.track + TaskArguments.zones + RunArguments.all,
            notes:
                "Videos get tracking IDs (stream mode); pictures are processed in single-image mode.\nExample: "
                + "vision-tasks track clip.mp4 --model classifier.tflite --jsonl tracks.jsonl --output "
                + "out/\nCounting: vision-tasks track clip.mp4 --line door=0.5,0,0.5,1 --zone "
                + "desk=0,0.6,0.4,0.6,0.4,1,0,1 --output out/\nA line's \"in\" side is on the right of "
                + "the picture for a line drawn downwards, above it for one drawn rightwards."
        ) { p, console in
            let config = try TrackConfig(p)
            try TaskCommand.run(p, console) { try TrackTask(config) }
        },
        ServeCommand.spec,
        EvalCommand.spec,
        ZonesCommand.spec,
        InspectCommand.spec,
        MetadataCommand.spec,
        ModelsCommand.spec,
        BenchCommand.spec,
        SoakCommand.spec,
    ]

    /// The usage page, generated from the declarations.
    static var usage: String {
        var lines = [
            "vision-tasks — MediaPipe Tasks Vision and ML Kit vision on Linux (LiteRT).", "",
            "Usage: vision-tasks COMMAND [options]", "", "Commands:",
        ]
        for c in commands { lines.append("  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary) }
        lines += [
            "", "Run 'vision-tasks COMMAND --help' for a command's options; 'vision-tasks --version' for the version,",
            "the LiteRT runtime and the kernels' CPU paths.",
            "Exit status: 0 on success, 64 for a bad command line, else the task's error code (3 = invalid argument, "
                + "5 = not found …).",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs with `arguments` (without the program name), writing to `console`, and returns the exit status.
    package static func main(_ arguments: [String], console: Console = .standard) -> Int32 {
        guard let name = arguments.first else {
            console.out(usage)
            return ItemFailure.usageStatus
        }
        let rest = Array(arguments.dropFirst())
        do {
            if name == "--version" || name == "version" {
                BuildInfo.lines.forEach(console.out)
                return 0
            }
            if ["help", "--help", "-h"].contains(name) {
                if let topic = rest.first {
                    guard let c = commands.first(where: { $0.name == topic }) else { throw unknown(topic) }
                    console.out(c.help)
                } else {
                    console.out(usage)
                }
                return 0
            }
            guard let command = commands.first(where: { $0.name == name }) else { throw unknown(name) }
            if rest.contains("--help") || rest.contains("-h") {
                console.out(command.help)
                return 0
            }
            try command.run(try ParsedCommand(command, rest), console)
            return 0
        } catch {
            let report = ErrorReport.make(error, command: name, knownCommand: commands.contains { $0.name == name })
            report.lines.forEach(console.err)
            return report.status
        }
    }

    static func unknown(_ name: String) -> CLIError {
        let hint = Suggestion.closest(to: name, in: commands.map(\.name)).map { " — did you mean '\($0)'?" } ?? ""
        return CLIError.usage("unknown command '\(name)'\(hint)")
    }
}
