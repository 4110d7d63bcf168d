import Foundation
import Locking
import MediaPipeTasksVision
import Testing
import VisionTestSupport

/// An actor that owns a detector, as a Swift 6 app would keep one.
actor DetectionService {
    private let detector: ObjectDetector
    private(set) var calls = 0

    init(modelPath: String) throws { detector = try ObjectDetector(modelPath: modelPath) }

    func detect(_ path: String) throws -> [Detection] {
        calls += 1
        return try detector.detect(image: MPImage(contentsOfFile: path)).detections
    }
}

/// Tasks are Sendable and safe to share: these run under ThreadSanitizer in CI.
@Suite("Tasks shared across threads, tasks and actors", .enabled(if: TestAssets.shouldRun))
struct ConcurrencyTests {
    static let detectorPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
    static let classifierPath = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
    static let photos = ["dog.jpg", "cat_720p.jpg", "giraffe.jpg", "person.jpg"]

    static func boxes(_ detections: [Detection]) -> [String] {
        detections.map { d in
            "\(d.boundingBox) \(d.categories.map { "\($0.index):\($0.categoryName ?? "")=\($0.score)" })"
        }
    }

    @Test("one ObjectDetector shared by 4 concurrent callers gives each photo's single-caller result")
    func sharedDetector() async throws {
        let detector = try ObjectDetector(modelPath: Self.detectorPath)
        var expected: [String: [String]] = [:]
        for photo in Self.photos {
            expected[photo] = Self.boxes(
                try detector.detect(image: MPImage(contentsOfFile: TestAssets.image(photo))).detections)
        }
        let results = try await withThrowingTaskGroup(of: (String, [String]).self) { group in
            for caller in 0..<4 {
                for round in 0..<3 {
                    let photo = Self.photos[(caller + round) % Self.photos.count]
                    group.addTask {
                        (
                            photo,
                            Self.boxes(
                                try detector.detect(image: MPImage(contentsOfFile: TestAssets.image(photo))).detections)
                        )
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 12)
        for (photo, boxes) in results { #expect(boxes == expected[photo], "\(photo)") }
        #expect(expected["dog.jpg"]?.isEmpty == false)
    }

    @Test("one ImageClassifier shared by 4 DispatchQueue callers, with regions of interest")
    func sharedClassifier() throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.classifierPath
        options.maxResults = 3
        let classifier = try ImageClassifier(options: options)
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let roi = CGRect(x: 0.1, y: 0.1, width: 0.6, height: 0.7)
        @Sendable func names(_ r: ImageClassifierResult) -> [String] {
            r.classificationResult.classifications.flatMap { $0.categories.map { "\($0.index)=\($0.score)" } }
        }
        let whole = names(try classifier.classify(image: image))
        let part = names(try classifier.classify(image: image, regionOfInterest: roi))
        #expect(whole != part)
        let got = Locked<[Int: [String]]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let r =
                i % 2 == 0
                ? try? classifier.classify(image: image) : try? classifier.classify(image: image, regionOfInterest: roi)
            got.withLock { $0[i] = r.map(names) }
        }
        let all = got.withLock { $0 }
        for (i, value) in all { #expect(value == (i % 2 == 0 ? whole : part)) }
        #expect(all.count == 8)
    }

    @Test("an actor owning a detector, called from 4 tasks")
    func actorOwned() async throws {
        let service = try DetectionService(modelPath: Self.detectorPath)
        let single = Self.boxes(
            try ObjectDetector(modelPath: Self.detectorPath).detect(
                image: MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
            ).detections)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { Self.boxes(try await service.detect(TestAssets.image("dog.jpg"))) } }
            for try await boxes in group { #expect(boxes == single) }
        }
        #expect(await service.calls == 4)
    }

    @Test(
        """
        live-stream results as an async sequence: every delivered frame, in order, equal to image mode; no delegate \
        needed
        """
    )
    func liveStreamSequence() async throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.detectorPath
        options.runningMode = .liveStream
        options.deliversLiveStreamResultsAsynchronously = true
        let detector = try ObjectDetector(options: options)
        let results = try detector.liveStreamResults()
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let consumer = Task {
            var got: [(Int, [String])] = []
            for await result in results {
                got.append(try (result.get().timestampInMilliseconds, Self.boxes(result.get().detections)))
            }
            return got
        }
        for t in 0..<20 { try detector.detectAsync(image: image, timestampInMilliseconds: t * 33) }
        detector.finishLiveStreamResults()
        let got = try await consumer.value
        let expected = Self.boxes(try ObjectDetector(modelPath: Self.detectorPath).detect(image: image).detections)
        #expect(got.count == 20 - detector.droppedFrameCount)
        #expect(got.count >= 2)
        #expect(got.map(\.0) == got.map(\.0).sorted() && Set(got.map(\.0)).count == got.count)
        #expect(got.first?.0 == 0)
        for (_, boxes) in got { #expect(boxes == expected) }
    }

    @Test("live-stream sequences: MediaPipe's rules still hold without the extension, and outside live-stream mode")
    func liveStreamRules() throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.detectorPath
        options.runningMode = .liveStream
        do {
            _ = try ObjectDetector(options: options)
            Issue.record("a live-stream detector without a delegate or the async extension was created")
        } catch let e as TasksError {
            #expect(e.code == 3)
            #expect(e.localizedDescription.contains("An object must be set as the delegate"))
        }
        let image = try ObjectDetector(modelPath: Self.detectorPath)
        do {
            _ = try image.liveStreamResults()
            Issue.record("liveStreamResults() in image mode did not throw")
        } catch let e as TasksError {
            #expect(e.code == 3)
            #expect(
                e.localizedDescription
                    == "The vision task is not initialized with live stream mode. Current Running Mode: Image")
        }
        let copy = try #require(
            { () -> ObjectDetectorOptions? in
                options.deliversLiveStreamResultsAsynchronously = true
                return options.copy() as? ObjectDetectorOptions
            }())
        #expect(copy.deliversLiveStreamResultsAsynchronously)
    }

    @Test("a classifier's live-stream sequence ends when the classifier is released")
    func sequenceEndsOnRelease() async throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.classifierPath
        options.runningMode = .liveStream
        options.deliversLiveStreamResultsAsynchronously = true
        var classifier: ImageClassifier? = try ImageClassifier(options: options)
        let results = try #require(classifier).liveStreamResults()
        try classifier?.classifyAsync(
            image: MPImage(contentsOfFile: TestAssets.image("dog.jpg")), timestampInMilliseconds: 1)
        classifier?.waitUntilIdle()
        classifier = nil
        var count = 0
        for await result in results {
            #expect(try result.get().timestampInMilliseconds == 1)
            count += 1
        }
        #expect(count == 1)
    }
}
