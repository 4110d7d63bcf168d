import FileInput
import Foundation
import VisionPipeline

/// `vision-tasks models`: lists the official models (and whether each is in the cache), fetches
/// them into the cache sha256-checked, or prints a cached model's path. `--model NAME` in the task
/// commands accepts a fetched model's name.
enum ModelsCommand {
    static let spec = CommandSpec(
        name: "models", summary: "list the official models, fetch them into the cache (sha256-checked)",
        positionals: "[list | fetch NAME... | path NAME]",
        positionalHelp: "list (default), fetch models (or --all), or print a fetched model's path",
        count: 0...Int.max,
        options: [
            OptionSpec(.all, .flag, help: "fetch: every model and photo"),
            OptionSpec(
                .mirror, .text, "URL",
                help: "fetch from this base URL instead of MediaPipe's bucket (also VISION_TASKS_MODEL_MIRROR)"),
            OptionSpec(.json, .flag, help: "list as JSON"),
        ],
        notes:
            "Cache: $XDG_CACHE_HOME/vision-tasks (else ~/.cache/vision-tasks).\nExample: vision-tasks models fetch "
            + "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29 && vision-tasks detect --model "
            + "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29 photo.jpg",
        run: run)

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let action = p.positionals.first ?? "list"
        let names = Array(p.positionals.dropFirst())
        let mirror = p.string(.mirror) ?? ProcessInfo.processInfo.environment["VISION_TASKS_MODEL_MIRROR"]
        let cache = ModelZoo.cacheDirectory()
        switch action {
        case "list":
            guard names.isEmpty else { throw CLIError.usage("models list takes no names") }
            if p.flag(.json) {
                let items: [JSONValue] = (try ModelZoo.entries()).map { e in
                    let path = cache.appendingPathComponent(e.name).path
                    return .object([
                        ("name", .string(e.name)), ("kind", .string(e.kind)), ("sha256", .string(e.sha256)),
                        ("url", .string(e.url)),
                        ("cached", FileManager.default.fileExists(atPath: path) ? .string(path) : .null),
                    ])
                }
                console.out(JSONValue.array(items).text)
                return
            }
            console.out("Official MediaPipe models and photos (cache: \(cache.path)):")
            for e in (try ModelZoo.entries()) {
                let cached = FileManager.default.fileExists(atPath: cache.appendingPathComponent(e.name).path)
                console.out(
                    "  \(cached ? "✓" : " ") \(e.name.padding(toLength: 54, withPad: " ", startingAt: 0)) \(e.kind)")
            }
            console.out("Fetch with 'vision-tasks models fetch NAME' (or --all); then use --model NAME.")
        case "fetch":
            let wanted: [ModelZoo.Entry] =
                try p.flag(.all)
                ? (try ModelZoo.entries())
                : names.map { n in
                    guard let e = try ModelZoo.entry(n) else {
                        let hint =
                            Suggestion.closest(to: n, in: (try ModelZoo.entries()).map(\.name)).map {
                                " — did you mean '\($0)'?"
                            } ?? ""
                        throw CLIError.usage("'\(n)' is not an official model\(hint); 'vision-tasks models' lists them")
                    }
                    return e
                }
            guard !wanted.isEmpty else { throw CLIError.usage("models fetch needs NAME... or --all") }
            for e in wanted {
                let path = try ModelZoo.fetch(e, mirror: mirror)
                console.out("\(e.name): \(path) (sha256 \(e.sha256.prefix(12))… checked)")
            }
        case "path":
            guard names.count == 1, let e = try ModelZoo.entry(names[0]) else {
                throw CLIError.usage("models path takes one official model name")
            }
            let path = cache.appendingPathComponent(e.name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError.usage("'\(e.name)' is not fetched yet: run 'vision-tasks models fetch \(e.name)'")
            }
            console.out(path)
        default:
            let hint =
                Suggestion.closest(to: action, in: ["list", "fetch", "path"]).map { " — did you mean '\($0)'?" } ?? ""
            throw CLIError.usage("models takes list, fetch or path, got '\(action)'\(hint)")
        }
    }
}
