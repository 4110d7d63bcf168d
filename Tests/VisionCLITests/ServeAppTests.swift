import Foundation
import Testing
import VisionPipeline
import VisionServer
import VisionTestSupport

/// `vision-tasks serve`'s app in headless Chromium (scripts/web/check_app.py, the Chrome DevTools
/// Protocol): a fake camera playing a stretch of car-detection.mp4 (FFmpeg made it .y4m), the live
/// boxes equal to the API's for the frames sent, settings, classification, ML Kit's tracked objects,
/// the library (a photo, a video annotated and downloadable), the keyboard, a phone-sized window, no
/// console errors; a slow server keeping one request in flight; a browser with no camera.
@Suite("vision-tasks serve's app in Chromium", .serialized, .enabled(if: TestAssets.shouldRun))
struct ServeAppTests {
    static let ssd = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
    static let fpnlite = TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite")
    static let classifier = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
    static let script = TestAssets.packageRoot.appendingPathComponent("scripts/web/check_app.py").path

    /// The fake camera (3.6 s of car-detection.mp4 from 15 s, where ML Kit's localizer finds cars) and a
    /// 2-second clip of it, made with FFmpeg.
    static func media(_ dir: String) throws -> (y4m: String, clip: String) {
        let video = TestAssets.image("car-detection.mp4")
        let y4m = dir + "/camera.y4m", clip = dir + "/clip.mp4"
        for arguments in [
            ["-ss", "15", "-i", video, "-t", "3.6", "-vf", "scale=640:360,fps=15", "-pix_fmt", "yuv420p", y4m],
            ["-ss", "15", "-i", video, "-t", "2", "-c:v", "libx264", "-an", clip],
        ] {
            let r = try AppProcess.run(arguments, executable: "/usr/bin/ffmpeg", prefix: ["-v", "error", "-y"])
            try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        }
        return (y4m, clip)
    }

    static func check(_ arguments: [String]) throws -> [String: Any] {
        let r = try AppProcess.python([script] + arguments)
        let report = try #require(
            try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout.suffix(3000))")
        #expect(r.status == 0, "failed: \(report["failed"] ?? "")")
        return report
    }

    @Test("the camera, the settings, classification, tracked objects, the library, keyboard and phone size")
    func app() throws {
        let dir = try AppProcess.folder("app")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (y4m, clip) = try Self.media(dir)
        let server = try ServerProcess([
            "--model", "ssd=" + Self.ssd, "--model", "fpnlite=" + Self.fpnlite, "--model",
            "mobilenet=" + Self.classifier,
        ])
        defer { _ = server.stop() }
        let report = try Self.check([
            server.base, "--y4m", y4m, "--photo", TestAssets.image("dog.jpg"), "--video", clip, "--detectors",
            "ssd,fpnlite",
            "--classifier", "mobilenet",
        ])
        let passed = report["passed"] as? [String] ?? []
        for name in [
            "the boxes drawn equal the API's for the frame sent", "inference time and frames per second are shown",
            "a higher threshold keeps only higher scores", "max results caps the boxes",
            "switching the model switches the results (the second model's boxes)",
            "classification shows its top categories live", "ML Kit's objects carry tracking IDs and labels",
            "ML Kit's objects show their inference time", "the inference time is shown before the settings open",
            "the model switches back", "the photo's boxes are the API's", "the annotated video downloads as an MP4",
            "no console errors",
        ] {
            #expect(passed.contains(name), "not passed: \(name)")
        }
        #expect(server.stop() == 0)
    }

    @Test("a slow server: the page keeps one request in flight and drops frames; the server's queue stays empty")
    func slowServer() throws {
        let dir = try AppProcess.folder("app-slow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (y4m, _) = try Self.media(dir)
        let server = try ServerProcess(["--model", Self.ssd, "--delay-ms", "300"])
        defer { _ = server.stop() }
        let report = try Self.check([server.base, "--y4m", y4m, "--photo", TestAssets.image("dog.jpg"), "--slow"])
        let passed = report["passed"] as? [String] ?? []
        #expect(passed.contains("slow server: one request in flight from the page"))
        #expect(passed.contains("slow server: frames dropped in the page"))
        #expect(passed.contains("slow server: no queue in the server (queued + running ≤ 1)"))
        #expect(server.stop() == 0)
    }

    @Test("no camera: the page says so, and the library still works")
    func noCamera() throws {
        let server = try ServerProcess(["--model", Self.ssd])
        defer { _ = server.stop() }
        let report = try Self.check([server.base, "--photo", TestAssets.image("dog.jpg"), "--no-camera"])
        let passed = report["passed"] as? [String] ?? []
        #expect(
            passed.contains("without a camera the page says so") && passed.contains("the photo's boxes are the API's"))
        #expect(server.stop() == 0)
    }
}
