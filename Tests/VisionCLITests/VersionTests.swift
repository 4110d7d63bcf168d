import Foundation
import Testing
import VisionCore
import VisionPipeline

@testable import VisionCLI

/// `vision-tasks --version`: the version, the runtime found and the kernels in use with their CPU paths.
@Suite("vision-tasks --version")
struct VersionTests {
    @Test("--version and 'version' print the version, LiteRT and the kernels in use, on standard output")
    func version() throws {
        for spelling in ["--version", "version"] {
            let r = InProcessCLI.run([spelling])
            #expect(r.status == 0 && r.error.isEmpty)
            let lines = r.outputLines
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first == "vision-tasks \(BuildInfo.version)")
            #expect(lines.dropFirst().first?.hasPrefix("LiteRT 2.3.0 (") == true, "\(lines)")
            #expect(lines.last?.hasPrefix("kernels: \(KernelChoice.standard); paths: hybrid depthwise ") == true)
        }
        #expect(InProcessCLI.run(["help"]).output.contains("'vision-tasks --version' for the version"))
    }
}
