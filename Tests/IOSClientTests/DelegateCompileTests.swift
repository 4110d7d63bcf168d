import Foundation
import Testing
import VisionTestSupport

/// Live-stream delegates type-checked by the compiler against the built `MediaPipeTasksVision`
/// module: the seeds' delegates compile; a misspelled method, wrong labels, a wrong type or a class
/// that is not an `NSObject` each fail to compile (iOS's `@optional` method would let them pass
/// silently and never be called).
@Suite("Live-stream delegates are checked at compile time")
struct DelegateCompileTests {
    /// Type-checks `source` after `import MediaPipeTasksVision`; returns the compiler's status and output.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        var modules: URL?
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(
                atPath: candidate.appendingPathComponent("MediaPipeTasksVision.swiftmodule").path)
            {
                modules = candidate
                break
            }
            folder.deleteLastPathComponent()
        }
        let buildFolder = try #require(modules, "no Modules folder near \(executable.path)").deletingLastPathComponent()
        var maps = (try FileManager.default.contentsOfDirectory(atPath: buildFolder.path))
            .filter { $0.hasSuffix(".build") }
            .map { buildFolder.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        maps += ["CZlib", "CCrypto"].map {
            TestAssets.packageRoot.appendingPathComponent("Sources/\($0)/module.modulemap").path
        }

        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vt-delegate-\(UUID().uuidString).swift")
        try ("import MediaPipeTasksVision\n" + source).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swiftc", "-typecheck", "-I", buildFolder.appendingPathComponent("Modules").path] + Self.targetFlags
            + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Extra compiler arguments for a cross-built test bundle (`make arm64` sets the aarch64 target,
    /// sysroot and resource directory in VISION_TASKS_SWIFTC_FLAGS): the modules are the target's.
    static var targetFlags: [String] {
        (ProcessInfo.processInfo.environment["VISION_TASKS_SWIFTC_FLAGS"] ?? "").split(separator: " ").map(String.init)
    }

    static let seedDelegates = """
        class ObjectDetectorResultProcessor: NSObject, ObjectDetectorLiveStreamDelegate {
          func objectDetector(
            _ objectDetector: ObjectDetector,
            didFinishDetection objectDetectionResult: ObjectDetectorResult?,
            timestampInMilliseconds: Int,
            error: Error?) {
          }
        }
        class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate {
          func imageClassifier(
            _ imageClassifier: ImageClassifier,
            didFinishClassification result: ImageClassifierResult?,
            timestampInMilliseconds: Int,
            error: Error?) {
          }
        }
        """

    @Test("the seeds' delegates compile")
    func seeds() throws {
        let (status, output) = try Self.typecheck(Self.seedDelegates)
        #expect(status == 0, "\(output)")
    }

    @Test(
        "a misspelled, mislabelled, mistyped or non-NSObject delegate does not compile",
        arguments: [
            (
                "misspelled method",
                """
                class P: NSObject, ObjectDetectorLiveStreamDelegate {
                  func objectDetecter(_ objectDetector: ObjectDetector, didFinishDetection result:\
                   ObjectDetectorResult?,
                                      timestampInMilliseconds: Int, error: Error?) {}
                }
                """
            ),
            (
                "wrong label",
                """
                class P: NSObject, ObjectDetectorLiveStreamDelegate {
                  func objectDetector(_ objectDetector: ObjectDetector, didFinishDetectionWithResult result:\
                   ObjectDetectorResult?,
                                      timestampInMilliseconds: Int, error: Error?) {}
                }
                """
            ),
            (
                "wrong type",
                """
                class P: NSObject, ImageClassifierLiveStreamDelegate {
                  func imageClassifier(_ imageClassifier: ImageClassifier, didFinishClassification result:\
                   ObjectDetectorResult?,
                                       timestampInMilliseconds: Int, error: Error?) {}
                }
                """
            ),
            (
                "not an NSObject",
                """
                class P: ObjectDetectorLiveStreamDelegate {
                  func objectDetector(_ objectDetector: ObjectDetector, didFinishDetection result:\
                   ObjectDetectorResult?,
                                      timestampInMilliseconds: Int, error: Error?) {}
                }
                """
            ),
        ])
    func rejected(_ kind: String, _ source: String) throws {
        let (status, output) = try Self.typecheck(source)
        #expect(status != 0, "\(kind) compiled")
        #expect(
            output.contains("does not conform to protocol") || output.contains("required by protocol"),
            "\(kind): \(output)")
    }
}
