import Foundation
import LiteRT
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

    @Test("started by name from PATH, elsewhere, it finds the runtime in .litert/lib beside its own file")
    func runtimeBesideTheProgram() throws {
        // The runtime this process found, by the search under test.
        let library = try LiteRTLibrary.shared().path
        try #require(library.hasPrefix("/"), "the runtime is the system's (\(library)): nothing to place beside")
        let root = try AppProcess.folder("installed")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin/.litert/lib", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: AppProcess.binary, toPath: root + "/bin/vision-tasks")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/bin/.litert/lib/libLiteRt.so", withDestinationPath: library)
        // argv[0] is the bare name and the working directory holds no runtime: only the program's own
        // directory leads to it.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let r = try AppProcess.run(
            ["vision-tasks", "--version"], environment: ["PATH": root + "/bin:" + path, "LITERT_LIBRARY": ""],
            executable: "/usr/bin/env", directory: root)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("LiteRT 2.3.0 (\(root)/bin/.litert/lib/libLiteRt.so)"), "\(r.stdout)")
    }
}
