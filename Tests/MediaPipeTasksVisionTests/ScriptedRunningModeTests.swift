import Foundation
import MediaPipeTasksVision
import Testing
import VisionCore
import VisionTestSupport

/// MediaPipe's running modes on a scripted runtime (no `libLiteRt.so`): timestamps, mode rules and
/// live-stream flow control — one frame in flight, the newest waiting, older ones dropped — with a
/// model whose every run takes a known time.
@Suite("Running modes and live-stream dropping on scripted inference (no runtime)")
struct ScriptedRunningModeTests {
    /// A synthetic classifier (labels a, b, c) whose scripted runs take `delay` seconds; `script`
    /// gives the uint8 scores of run n.
    static func options(
        _ mode: RunningMode, delay: TimeInterval = 0, delegate: (any ImageClassifierLiveStreamDelegate)? = nil,
        script: @escaping @Sendable (Int) throws -> [UInt8] = { _ in [10, 200, 40] }
    ) throws -> (ImageClassifierOptions, ScriptedRuntime) {
        let model = try SyntheticModels.classifier(heads: [
            .init(name: "head", kind: .uint8, values: [0, 0, 0], labels: ["a", "b", "c"])
        ])
        let runtime = ScriptedRuntime(delay: delay) { run, _ in [try script(run)] }
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(model)
        options.baseOptions.inferenceRuntime = runtime
        options.runningMode = mode
        options.imageClassifierLiveStreamDelegate = delegate
        return (options, runtime)
    }

    static func image() throws -> MPImage {
        try MPImage(
            uiImage: try #require(UIImage(rgbPixels: [UInt8](repeating: 90, count: 8 * 8 * 3), width: 8, height: 8)))
    }

    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let e as TasksError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    @Test(
        """
        image mode: synthetic timestamps 0, 1000, 2000; video mode: the frames' own, strictly increasing; each \
        mode's calls only
        """
    )
    func modes() throws {
        let image = try Self.image()
        let still = try ImageClassifier(options: try Self.options(.image).0)
        let results = try (0..<3).map { _ in try still.classify(image: image) }
        #expect(results.map(\.timestampInMilliseconds) == [0, 1000, 2000])
        #expect(results.map(\.classificationResult.timestampInMilliseconds) == [0, 1000, 2000])
        #expect(
            results.first?.classificationResult.classifications.first?.categories.map(\.categoryName) == [
                "b", "c", "a",
            ])
        #expect(
            Self.message { _ = try still.classify(videoFrame: image, timestampInMilliseconds: 1) }?.hasPrefix(
                "The vision task is not initialized with video mode.") == true)

        let video = try ImageClassifier(options: try Self.options(.video).0)
        #expect(
            try video.classify(videoFrame: image, timestampInMilliseconds: 40).classificationResult
                .timestampInMilliseconds == 40)
        #expect(
            Self.message { _ = try video.classify(videoFrame: image, timestampInMilliseconds: 40) }
                == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        #expect(try video.classify(videoFrame: image, timestampInMilliseconds: 41).timestampInMilliseconds == 41)
        #expect(
            Self.message { _ = try video.classify(image: image) }
                == "The vision task is not initialized with image mode. Current Running Mode: Video")
    }

    @Test(
        """
        live stream on a slow model: one frame in flight, the newest waits, older ones are dropped; results in \
        order, the last frame kept
        """
    )
    func liveStreamDropping() throws {
        let collector = ClassificationCollector()
        let (options, runtime) = try Self.options(.liveStream, delay: 0.2, delegate: collector)
        let classifier = try ImageClassifier(options: options)
        let image = try Self.image()
        // far faster than 200 ms a run
        for t in 0..<20 { try classifier.classifyAsync(image: image, timestampInMilliseconds: t * 10) }
        classifier.waitUntilIdle()
        let delivered = collector.timestamps
        #expect(
            delivered.count + classifier.droppedFrameCount == 20,
            "delivered \(delivered), dropped \(classifier.droppedFrameCount)")
        // The first frame runs at once, the newest waits; everything between is dropped.
        #expect(delivered == [0, 190], "\(delivered)")
        #expect(classifier.droppedFrameCount == 18)
        #expect(runtime.log.withLock { $0.runs } == delivered.count)  // dropped frames never reach the model
        #expect(collector.results.map(\.classificationResult.timestampInMilliseconds) == [0, 190])
        #expect(
            Self.message { try classifier.classifyAsync(image: image, timestampInMilliseconds: 190) }
                == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
    }

    @Test("live stream: a frame whose run fails is delivered as an error (timestamp Int.min), and the stream goes on")
    func liveStreamErrors() throws {
        struct Failed: Error {}
        let collector = ClassificationCollector()
        let (options, _) = try Self.options(.liveStream, delegate: collector) { run in
            if run == 1 { throw Failed() }
            return [10, 200, 40]
        }
        let classifier = try ImageClassifier(options: options)
        let image = try Self.image()
        for t in [5, 6, 7] {
            try classifier.classifyAsync(image: image, timestampInMilliseconds: t)
            classifier.waitUntilIdle()
        }
        #expect(collector.timestamps == [5, Int.min, 7])
        #expect(collector.results.map(\.timestampInMilliseconds) == [5, 7])
    }
}
