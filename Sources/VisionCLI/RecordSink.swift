import Foundation

/// Where records go: the seeds' text on standard output (the default), `--jsonl` (one record per
/// line, each flushed as it is written), and/or `--json` (one document at the end).
final class RecordSink {
    private let text: LineWriter?
    private let jsonl: LineWriter?
    private var document: [String]?

    init(_ p: ParsedCommand, resuming: Bool) throws {
        let jsonlPath = p.string("jsonl")
        if jsonlPath == "-" && p.flag("json") { throw CLIError.usage("--json and --jsonl - both write to standard output: pick one") }
        if p.flag("resume") && (jsonlPath == nil || jsonlPath == "-") { throw CLIError.usage("--resume needs --jsonl FILE (the records to resume from)") }
        if let jsonlPath {
            jsonl = jsonlPath == "-" ? LineWriter.standardOutput(flushEachLine: true)
                : try LineWriter(path: jsonlPath, append: resuming, flushEachLine: true)
        } else {
            jsonl = nil
        }
        document = p.flag("json") ? [] : nil
        text = (jsonlPath == nil && !p.flag("json") && !p.flag("quiet")) ? LineWriter.standardOutput() : nil
    }

    /// Writes one record (and its text form under `heading`).
    func write(_ record: JSONValue, text body: String, heading: String?) throws {
        let line = record.text
        try jsonl?.write(line)
        document?.append(line)
        if let text {
            if let heading { try text.write(heading) }
            if !body.isEmpty { try text.write(body) }
        }
    }

    /// Ends the output; `--json` prints its document with `header` fields first.
    func finish(header: [(String, JSONValue)], summary: JSONValue) throws {
        try text?.close()
        try jsonl?.close()
        if let document {
            let head = JSONValue.object(header).text.dropLast()
            let out = LineWriter.standardOutput()
            try out.write(head + (header.isEmpty ? "" : ",") + "\"records\":[" + document.joined(separator: ",") + "],\"summary\":" + summary.text + "}")
            try out.close()
        }
    }
}
