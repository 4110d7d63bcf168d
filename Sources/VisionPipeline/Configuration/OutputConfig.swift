/// Where a task command's results go, parsed once: records (`--jsonl`, `--json`, text), annotated
/// pictures and videos, the HTML report, progress, and whether to resume.
package struct OutputConfig: Sendable {
    package var jsonl: String?
    package var json = false
    package var quiet = false
    package var resume = false
    package var output: String?
    package var report: String?
    package var progress = "auto"

    package init() {}
}
