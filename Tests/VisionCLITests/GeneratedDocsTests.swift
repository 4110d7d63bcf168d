import Foundation
import Testing
import VisionCLI
import VisionServer
import VisionTestSupport

/// The articles' generated parts are the declarations': the command-line reference is the commands' option
/// tables (`CommandSpec`), the route table is `Route.all`. A change to either fails here until the article
/// is regenerated: `VISION_TASKS_UPDATE_DOCS=1 swift test --filter GeneratedDocsTests` rewrites it.
@Suite("the articles' generated parts")
struct GeneratedDocsTests {
    @Test("CommandLine.md's reference is the commands' declarations")
    func commandLine() throws {
        try check(
            "Documentation/VisionTasks.docc/CommandLine.md", begin: "<!-- BEGIN GENERATED: vision-tasks commands -->",
            end: "<!-- END GENERATED: vision-tasks commands -->", expected: VisionTasksCommand.markdownReference)
    }

    @Test("Serving.md's route table is Route.all's")
    func routes() throws {
        try check(
            "Documentation/VisionTasks.docc/Serving.md", begin: "<!-- BEGIN GENERATED: serve routes -->",
            end: "<!-- END GENERATED: serve routes -->", expected: Route.markdownTable)
    }

    @Test("the reference has every command, its usage line and every option once")
    func reference() {
        let text = VisionTasksCommand.markdownReference
        for name in ["detect", "classify", "label", "track", "serve", "eval", "metadata", "bench"] {
            #expect(text.contains("### \(name)\n") && text.contains("`vision-tasks \(name)"))
        }
        #expect(text.contains("| `--max-results` | `N` |"))
        #expect(text.contains("| `--score-threshold` |"))
        // A choice's words are in code voice with their pipes escaped, so every row keeps its five column bars.
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        #expect(
            !rows.isEmpty
                && rows.allSatisfy { $0.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 5 })
    }

    /// Compares the lines of `path` between the marker lines `begin` and `end` with `expected`; rewrites them
    /// when asked.
    private func check(_ path: String, begin: String, end: String, expected: String) throws {
        let url = TestAssets.packageRoot.appendingPathComponent(path)
        let document = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(document.range(of: begin), "\(path) has no line \(begin)")
        let stop = try #require(
            document.range(of: end, range: start.upperBound..<document.endIndex), "\(path) has no line \(end)")
        let current = String(document[start.upperBound..<stop.lowerBound])
        let block = "\n" + expected + "\n"
        if current != block, ProcessInfo.processInfo.environment["VISION_TASKS_UPDATE_DOCS"] == "1" {
            let rewritten = String(document[..<start.upperBound]) + block + String(document[stop.lowerBound...])
            try rewritten.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == block,
            "\(path) is out of date: VISION_TASKS_UPDATE_DOCS=1 swift test --filter GeneratedDocsTests")
    }
}
