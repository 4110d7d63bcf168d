import Foundation
import Imaging
import MediaPipeTasksVision
import Testing
import VisionCore
import VisionTestSupport

/// Collects live-stream callbacks (thread-safe).
final class Collector: NSObject, ObjectDetectorLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var timestamps: [Int] = []
    private(set) var results: [ObjectDetectorResult] = []
    private(set) var errors: [Error] = []
    private(set) var queueLabels: Set<String> = []

    var count: Int { lock.withLock { timestamps.count } }

    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: Error?
    ) {
        let label =
            DispatchQueue.getSpecific(key: LiveStreamRunner<MPImage, ObjectDetectorResult>.queueLabelKey)
            ?? "not a callback queue"
        lock.withLock {
            timestamps.append(timestampInMilliseconds)
            if let result { results.append(result) }
            if let error { errors.append(error) }
            queueLabels.insert(label)
        }
    }
}

@Suite("ObjectDetector in video and live-stream modes", .enabled(if: TestAssets.shouldRun))
struct LiveStreamTests {
    static func options(
        _ mode: RunningMode, delegate: (any ObjectDetectorLiveStreamDelegate)? = nil
    ) -> ObjectDetectorOptions {
        let o = ObjectDetectorOptions()
        o.baseOptions.modelAssetPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        o.runningMode = mode
        o.objectDetectorLiveStreamDelegate = delegate
        return o
    }

    static func error(_ body: () throws -> Void) -> TasksError? {
        do { try body(); return nil } catch let e as TasksError { return e } catch { return nil }
    }

    @Test("live-stream results arrive on one serial queue, in order, equal to image-mode results")
    func results() throws {
        let collector = Collector()
        let detector = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        for t in 0..<5 {
            try detector.detectAsync(image: image, timestampInMilliseconds: t * 40)
            detector.waitUntilIdle()  // one at a time: nothing is dropped
        }
        #expect(collector.timestamps == [0, 40, 80, 120, 160])
        #expect(collector.results.map(\.timestampInMilliseconds) == [0, 40, 80, 120, 160])
        #expect(collector.queueLabels.count == 1)
        #expect(collector.queueLabels.first?.hasPrefix("com.mediapipe.tasks.vision.objectDetector_") == true)
        let still = try ObjectDetector(modelPath: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
            .detect(image: image)
        #expect(collector.results.first?.detections == still.detections)
    }

    @Test("1,000 frames at about 4× the processing rate: no deadlock, one callback per kept frame, in order")
    func stress() throws {
        let collector = Collector()
        let detector = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        let image = try MPImage(contentsOfFile: TestAssets.image("pets.jpg"))
        // Measure the processing time, then send four frames per processing time.
        let t0 = Date()
        try detector.detectAsync(image: image, timestampInMilliseconds: 0)
        detector.waitUntilIdle()
        let interval = max(Date().timeIntervalSince(t0) / 4, 0.001)
        for i in 1...1000 {
            try detector.detectAsync(image: image, timestampInMilliseconds: i * 10)
            Thread.sleep(forTimeInterval: interval)
        }
        let deadline = Date().addingTimeInterval(30)
        detector.waitUntilIdle()
        #expect(Date() < deadline)
        let delivered = collector.count - 1  // minus the timing frame
        #expect(
            delivered + detector.droppedFrameCount == 1000,
            "delivered \(delivered), dropped \(detector.droppedFrameCount)")
        #expect(detector.droppedFrameCount > 100)
        #expect(
            collector.timestamps == collector.timestamps.sorted()
                && Set(collector.timestamps).count == collector.timestamps.count)
        #expect(collector.timestamps.last == 10_000)  // the newest frame is never dropped
        #expect(collector.errors.isEmpty)
    }

    @Test(
        "2,000 live frames at 4× the processing rate keep resident memory flat (in a process of its own)",
        .disabled(if: TestAssets.underSanitizer))
    func streamMemory() throws {
        // Other suites run beside this one in the test process and move its resident memory, so the
        // stream runs in `vision-tasks soak --live`, where nothing else allocates.
        let binary = TestAssets.cli
        try #require(
            FileManager.default.isExecutableFile(atPath: binary), "build vision-tasks first (swift build --build-tests)"
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "soak", "--live", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"),
            "--image", TestAssets.image("pets.jpg"), "--cycles", "2000",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let delivered = report["delivered"] as? Int ?? -1
        let dropped = report["dropped"] as? Int ?? -1
        #expect(delivered + dropped == 2000 && dropped > 200, "delivered \(delivered), dropped \(dropped)")
        #expect(
            report["ordered"] as? Bool == true && report["lastTimestamp"] as? Int == 20_000
                && report["errors"] as? Int == 0)
        let growth = (report["rss_after"] as? Int ?? 0) - (report["rss_at_200"] as? Int ?? 0)
        // A frame kept per call (a 1,280×853 picture's pixels, or its 300×300 tensor) would exceed this
        // many times over in 1,800 frames; the allocator's own noise stays within a few MB.
        #expect(growth < 16 * 1024 * 1024, "resident memory grew by \(growth / 1024) KiB over 1,800 frames")
    }

    @Test("the delegate is held weakly: once released, results are dropped without a crash")
    func weakDelegate() throws {
        var collector: Collector? = Collector()
        let detector = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        weak var weakCollector: Collector?
        weakCollector = collector
        collector = nil
        #expect(weakCollector == nil)
        try detector.detectAsync(
            image: try MPImage(contentsOfFile: TestAssets.image("dog.jpg")), timestampInMilliseconds: 1)
        detector.waitUntilIdle()
    }

    @Test("delegate rules are checked before the model is loaded")
    func delegateRules() {
        let noDelegate = Self.error { _ = try ObjectDetector(options: Self.options(.liveStream)) }
        #expect(noDelegate?.tasksCode == .invalidArgumentError)
        #expect(
            noDelegate?.message
                == "The vision task is in live stream mode. An object must be set as the delegate of the task in its "
                + "options to ensure asynchronous delivery of results."
        )
        let collector = Collector()
        for mode in [RunningMode.image, .video] {
            let o = Self.options(mode, delegate: collector)
            o.baseOptions.modelAssetPath = "/nonexistent.tflite"  // the delegate error comes first
            let e = Self.error { _ = try ObjectDetector(options: o) }
            #expect(
                e?.message
                    == "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
    }

    @Test("calling another mode's method gives MediaPipe's wrong-mode error")
    func wrongMode() throws {
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let imageMode = try ObjectDetector(options: Self.options(.image))
        #expect(
            Self.error { _ = try imageMode.detect(videoFrame: image, timestampInMilliseconds: 0) }?.message
                == "The vision task is not initialized with video mode. Current Running Mode: Image")
        #expect(
            Self.error { try imageMode.detectAsync(image: image, timestampInMilliseconds: 0) }?.message
                == "The vision task is not initialized with live stream mode. Current Running Mode: Image")
        let video = try ObjectDetector(options: Self.options(.video))
        #expect(
            Self.error { _ = try video.detect(image: image) }?.message
                == "The vision task is not initialized with image mode. Current Running Mode: Video")
        let collector = Collector()
        let live = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        #expect(
            Self.error { _ = try live.detect(image: image) }?.message
                == "The vision task is not initialized with image mode. Current Running Mode: Live Stream")
    }

    @Test("timestamps must increase strictly, in video and live-stream modes")
    func timestamps() throws {
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let video = try ObjectDetector(options: Self.options(.video))
        #expect(try video.detect(videoFrame: image, timestampInMilliseconds: 100).timestampInMilliseconds == 100)
        for t in [100, 99] {
            let e = Self.error { _ = try video.detect(videoFrame: image, timestampInMilliseconds: t) }
            #expect(e?.tasksCode == .invalidArgumentError)
            #expect(e?.message == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        }
        #expect(try video.detect(videoFrame: image, timestampInMilliseconds: 101).timestampInMilliseconds == 101)
        let collector = Collector()
        let live = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        try live.detectAsync(image: image, timestampInMilliseconds: 5)
        #expect(
            Self.error { try live.detectAsync(image: image, timestampInMilliseconds: 5) }?.message
                == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        live.waitUntilIdle()
        #expect(collector.timestamps == [5])
    }

    @Test("mirrored orientations are refused with MediaPipe's message, in every mode")
    func mirrored() throws {
        let mirrored = try MPImage(
            uiImage: UIImage(contentsOfFile: TestAssets.image("dog.jpg")), orientation: .upMirrored)
        let expected =
            "Unsupported UIImageOrientation. `imageOrientation` cannot be equal to any of the mirrored orientations "
            + "(`UIImageOrientationUpMirrored`,`UIImageOrientationDownMirrored`,"
            + "`UIImageOrientationLeftMirrored`,`UIImageOrientationRightMirrored`)"
        #expect(
            Self.error { _ = try ObjectDetector(options: Self.options(.image)).detect(image: mirrored) }?.message
                == expected)
        #expect(
            Self.error {
                _ = try ObjectDetector(options: Self.options(.video)).detect(
                    videoFrame: mirrored, timestampInMilliseconds: 1)
            }?.tasksCode
                == .invalidArgumentError)
        let collector = Collector()  // held here: the options keep the delegate weakly
        let live = try ObjectDetector(options: Self.options(.liveStream, delegate: collector))
        #expect(Self.error { try live.detectAsync(image: mirrored, timestampInMilliseconds: 1) }?.message == expected)
    }
}
