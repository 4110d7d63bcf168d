import Foundation
import VisionAnalytics
import VisionPipeline

/// `vision-tasks zones TRACKS --line … --zone …`: counts lines and zones on tracks already made —
/// `track --jsonl` records or MOTChallenge text (a tracker's output or ground truth) — without
/// running a model again: try other lines, or count on ground truth. The same counting as
/// `track --line/--zone`, so the same tracks give the same events and counts.
enum ZonesCommand {
    static let options =
        TaskArguments.zones + [
            OptionSpec(
                .fps, .number(0.001...100_000), "F", default: "30",
                help: "MOT text: frames per second, for timestamps and dwell times"),
            OptionSpec(
                .size, .text, "WxH", help: "MOT text: the frame size, for lines and zones given as 0…1 fractions"),
            OptionSpec(
                .json, .flag, help: "one JSON document on standard output: every event and each video's summary"),
        ]

    static let spec = CommandSpec(
        name: "zones",
        summary:
            "count line crossings, zone visits and dwell times on existing tracks (track --jsonl records or MOT text)",
        positionals: "TRACKS",
        positionalHelp: "a .jsonl of `vision-tasks track` records, or MOTChallenge text (frame,id,x,y,w,h,…)",
        count: 1...1,
        options: options,
        notes:
            "Example: vision-tasks zones tracks.jsonl --line door=0.5,0,0.5,1 --zone "
            + "desk=100,200,300,200,300,400,100,400\nThe same rules as track --line/--zone (the \"in\" side of a "
            + "line drawn downwards is the right of the picture).",
        run: run)

    static func size(_ text: String?) throws -> (width: Int, height: Int)? {
        guard let text else { return nil }
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else {
            throw CLIError.usage("--size takes WIDTHxHEIGHT in pixels, e.g. 1280x720 (got '\(text)')")
        }
        return (w, h)
    }

    static func run(_ p: ParsedCommand, _ console: Console) throws {
        let zones = try ZoneConfig(p)
        guard !zones.isEmpty else {
            throw CLIError.usage("zones needs at least one --line NAME=x1,y1,x2,y2 or --zone NAME=x1,y1,x2,y2,x3,y3,…")
        }
        let tracks = try TrackFrames.read(p.positionals[0], framesPerSecond: try p.value(.fps, as: Double.self))
        guard !tracks.videos.isEmpty else { throw CLIError.usage("\(p.positionals[0]): no tracked frames in it") }
        let given = try size(p.string(.size))
        var events: [JSONValue] = [], summaries: [JSONValue] = []
        for video in tracks.videos {
            let usesFractions = (zones.lines + zones.zones).contains(where: \.normalized)
            let width = given?.width ?? video.width, height = given?.height ?? video.height
            if usesFractions && (width == nil || height == nil) {
                throw CLIError.usage(
                    "\(video.source): lines or zones in 0…1 fractions need the frame size: give --size WxH")
            }
            guard var counter = try zones.counter(width: width ?? 1, height: height ?? 1) else { continue }
            for frame in video.frames {
                let update = counter.update(frame.objects, timestampMs: frame.timestampMs)
                events += update.events.map { e in
                    guard case .object(let fields) = ZoneReport.event(e) else { return ZoneReport.event(e) }
                    return .object([("source", .string(video.source)), ("frame", .int(frame.number))] + fields)
                }
            }
            if case .object(let fields) = ZoneReport.summary(counter) {
                summaries.append(.object([("source", .string(video.source))] + fields))
            }
            if !p.flag(.json) {
                console.out(
                    ([video.source + ":"] + ZoneReport.lines(counter).map { "  " + $0 }).joined(separator: "\n"))
            }
        }
        if p.flag(.json) {
            console.out(JSONValue.object([("events", .array(events)), ("videos", .array(summaries))]).text)
        }
    }
}
