import Foundation

/// Where records go: the seeds' text on standard output (the default), `--jsonl` (one record per
/// line, each flushed as it is written), and/or `--json` (one document at the end).
package final class RecordSink {
    private let text: LineWriter?
    private let jsonl: LineWriter?
    private var document: [String]?

    private let console: Console

    package init(_ config: OutputConfig, resuming: Bool, console: Console) throws {
        self.console = console
        if let path = config.jsonl {
            jsonl =
                path == "-"
                ? LineWriter.standardOutput(console, flushEachLine: true)
                : try LineWriter(path: path, append: resuming, flushEachLine: true)
        } else {
            jsonl = nil
        }
        document = config.json ? [] : nil
        text = (config.jsonl == nil && !config.json && !config.quiet) ? LineWriter.standardOutput(console) : nil
    }

    /// Writes one record (and its text form under `heading`).
    package func write(_ record: JSONValue, text body: String, heading: String?) throws {
        let line = record.text
        try jsonl?.write(line)
        document?.append(line)
        if let text {
            if let heading { try text.write(heading) }
            if !body.isEmpty { try text.write(body) }
        }
    }

    /// Ends the output; `--json` prints its document with `header` fields first.
    package func finish(header: [(String, JSONValue)], summary: JSONValue) throws {
        try text?.close()
        try jsonl?.close()
        if let document {
            let head = JSONValue.object(header).text.dropLast()
            let out = LineWriter.standardOutput(console)
            try out.write(
                head + (header.isEmpty ? "" : ",") + "\"records\":[" + document.joined(separator: ",")
                    + "],\"summary\":" + summary.text + "}")
            try out.close()
        }
    }
}
