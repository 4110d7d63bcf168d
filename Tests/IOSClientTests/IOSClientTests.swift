import Foundation
import MediaPipeTasksVision
import Testing
import VisionTestSupport

// Client code written against MediaPipe's iOS headers (MPPTaskOptions, MPPTaskResult,
// MPPClassificationResult, MPPImage) and Core Video, as an iOS app would: it must compile against
// `import MediaPipeTasksVision` alone and behave as on iOS.

/// A camera-style delegate: NSObject subclass, the required method, results collected.
final class DetectionsReceiver: NSObject, ObjectDetectorLiveStreamDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var results: [TaskResult] = []
    var received: [TaskResult] { lock.lock(); defer { lock.unlock() }; return results }

    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
        timestampInMilliseconds: Int, error: Error?
    ) {
        guard let result else { return }
        lock.lock(); results.append(result); lock.unlock()
    }
}

@Suite("iOS-shaped client code", .enabled(if: TestAssets.shouldRun))
struct IOSClientTests {
    static let detectorPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
    static let birdsPath = TestAssets.model("aiy_vision_classifier_birds_V1_3.tflite")

    /// Works on any task result, as iOS code written against `MPPTaskResult` does.
    static func timestamp(of result: TaskResult) -> Int { result.timestampInMilliseconds }

    @Test("defaults read as the iOS headers declare them: non-optional, 0 and \"en\"")
    func defaults() {
        let options = ObjectDetectorOptions()
        let threshold: Float = options.scoreThreshold
        let locale: String = options.displayNamesLocale
        let maxResults: Int = options.maxResults
        #expect(threshold == 0 && locale == "en" && maxResults == -1)
        #expect(options.runningMode == .image && options.runningMode.rawValue == UInt(0))
        #expect(options.baseOptions.delegate == .CPU && Delegate.GPU.rawValue == UInt(1))
        #expect(options.categoryAllowlist.isEmpty && options.categoryDenylist.isEmpty)
        let classifierOptions = ImageClassifierOptions()
        #expect(classifierOptions.scoreThreshold == 0 && classifierOptions.displayNamesLocale == "en")
        #expect(TasksErrorCode.first == .cancelledError && TasksErrorCode.last.rawValue == 20)
        #expect(TasksErrorCode(rawValue: 17) == .audioRecordPermissionDeniedError)
        #expect(TasksErrorCode.allCases.map(\.rawValue) == Array(1...20))
        #expect(MPImageSourceType.pixelBuffer.rawValue == 1 && MPImageSourceType(rawValue: 2) == .sampleBuffer)
    }

    @Test("copy() gives an independent options object of the same class")
    func copies() throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.detectorPath
        options.baseOptions.numThreads = 2
        options.maxResults = 3
        options.scoreThreshold = 0.4
        options.displayNamesLocale = "fr"
        options.categoryAllowlist = ["dog"]
        let copy = try #require(options.copy() as? ObjectDetectorOptions)
        #expect(copy !== options && copy.baseOptions !== options.baseOptions)
        #expect(copy.baseOptions.modelAssetPath == Self.detectorPath && copy.baseOptions.numThreads == 2)
        #expect(
            copy.maxResults == 3 && copy.scoreThreshold == 0.4 && copy.displayNamesLocale == "fr"
                && copy.categoryAllowlist == ["dog"])
        copy.maxResults = 7
        copy.baseOptions.modelAssetPath = "/elsewhere.tflite"
        copy.categoryAllowlist = []
        #expect(
            options.maxResults == 3 && options.baseOptions.modelAssetPath == Self.detectorPath
                && options.categoryAllowlist == ["dog"])

        // `baseOptions` is a copy property: assigning stores a copy.
        let base = BaseOptions()
        base.modelAssetPath = "/a.tflite"
        options.baseOptions = base
        base.modelAssetPath = "/b.tflite"
        #expect(options.baseOptions.modelAssetPath == "/a.tflite")

        let classifierOptions = ImageClassifierOptions()
        classifierOptions.maxResults = 5
        let classifierCopy = try #require(classifierOptions.copy() as? ImageClassifierOptions)
        #expect(classifierCopy.maxResults == 5)
        let taskOptions: TaskOptions = classifierOptions
        #expect(taskOptions.copy() is ImageClassifierOptions)
    }

    @Test("a task reads its options once: later changes, delegate included, do not reach it")
    func optionsReadOnce() throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.detectorPath
        options.maxResults = 2
        let detector = try ObjectDetector(options: options)
        options.maxResults = 10
        options.scoreThreshold = 0.99
        options.baseOptions.modelAssetPath = "/nonexistent.tflite"
        let image = try MPImage(uiImage: try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg"))))
        let result = try detector.detect(image: image)
        #expect(result.detections.count == 2)

        let receiver = DetectionsReceiver()
        let live = ObjectDetectorOptions()
        live.baseOptions.modelAssetPath = Self.detectorPath
        live.runningMode = .liveStream
        live.objectDetectorLiveStreamDelegate = receiver
        let liveDetector = try ObjectDetector(options: live)
        let other = DetectionsReceiver()
        live.objectDetectorLiveStreamDelegate = other  // too late: the detector keeps `receiver`
        try liveDetector.detectAsync(image: image, timestampInMilliseconds: 5)
        liveDetector.waitUntilIdle()
        #expect(receiver.received.map(Self.timestamp) == [5])
        #expect(other.received.isEmpty)
    }

    @Test("results are TaskResults; the containers have iOS's initializers")
    func results() throws {
        let detector = try ObjectDetector(modelPath: Self.detectorPath)
        let image = try MPImage(uiImage: try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg"))))
        let first: TaskResult = try detector.detect(image: image)
        let second: TaskResult = try detector.detect(image: image)
        #expect([first, second].map(Self.timestamp) == [0, 1000])
        #expect((first.copy() as? TaskResult)?.timestampInMilliseconds == 0)
        #expect((first as? ObjectDetectorResult)?.detections == (second as? ObjectDetectorResult)?.detections)

        let category = ResultCategory(index: 3, score: 0.5, categoryName: "cat", displayName: nil)
        let head = Classifications(headIndex: 0, categories: [category])
        #expect(head.headName == nil && head.categories == [category])
        let named = Classifications(headIndex: 1, headName: "probability", categories: [])
        let classification = ClassificationResult(classifications: [head, named], timestampInMilliseconds: 0)
        let result = ImageClassifierResult(classificationResult: classification, timestampInMilliseconds: 42)
        #expect(
            Self.timestamp(of: result) == 42 && result.classificationResult.classifications[1].headName == "probability"
        )
        let keypoint = NormalizedKeypoint(location: CGPoint(x: 0.25, y: 0.5), label: "eye", score: 0.9)
        #expect(keypoint == NormalizedKeypoint(location: CGPoint(x: 0.25, y: 0.5), label: "eye", score: 0.9))
        #expect(keypoint != NormalizedKeypoint(location: CGPoint(x: 0.25, y: 0.5), label: "nose", score: 0.9))
        let detection = Detection(
            categories: [category], boundingBox: CGRect(x: 1, y: 2, width: 3, height: 4), keypoints: [keypoint])
        #expect(detection.keypoints?.first?.label == "eye")
    }

    @Test("seed 001's call: birds classifier, maxResults 5, default options → 5 categories")
    func birds() throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.birdsPath
        options.maxResults = 5
        let imageClassifier = try ImageClassifier(options: options)
        let image = try MPImage(uiImage: try #require(UIImage(contentsOfFile: TestAssets.image("bird.png"))))
        let result = try imageClassifier.classify(image: image)
        let categories = try #require(result.classificationResult.classifications.first?.categories)
        #expect(categories.count == 5)
        #expect(categories.map(\.score) == categories.map(\.score).sorted(by: >))
    }

    @Test("a pixel buffer made and filled with Core Video's functions detects as the decoded photo")
    func coreVideoFrame() throws {
        let uiImage = try #require(UIImage(contentsOfFile: TestAssets.image("dog.jpg")))
        let source = try #require(uiImage.cgImage)
        let width = source.width, height = source.height

        var pixelBuffer: CVPixelBuffer?
        let attributes: [String: Any] = ["IOSurfaceProperties": [String: Any]()]
        let status = CVPixelBufferCreate(
            kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA,
            attributes as CFDictionary, &pixelBuffer)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
        #expect(bytesPerRow >= width * 4 && bytesPerRow % 64 == 0)
        let pixels = base.assumingMemoryBound(to: UInt8.self)
        for y in 0..<CVPixelBufferGetHeight(buffer) {
            for x in 0..<CVPixelBufferGetWidth(buffer) {
                let (r, g, b) = source.bitmap.rgb(x: x, y: y)
                let p = y * bytesPerRow + x * 4
                pixels[p] = b; pixels[p + 1] = g; pixels[p + 2] = r; pixels[p + 3] = 255
            }
        }
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnInvalidArgument)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        #expect(CVPixelBufferGetDataSize(buffer) == bytesPerRow * height && !CVPixelBufferIsPlanar(buffer))

        let imageBuffer: CVImageBuffer = buffer
        let detector = try ObjectDetector(modelPath: Self.detectorPath)
        let fromBuffer = try detector.detect(image: try MPImage(pixelBuffer: imageBuffer))
        let fromPhoto = try detector.detect(image: try MPImage(uiImage: UIImage(cgImage: source)))
        #expect(fromBuffer.detections == fromPhoto.detections && !fromBuffer.detections.isEmpty)
    }

    @Test("an NV12 buffer's planes are filled through the per-plane functions")
    func planes() throws {
        var pixelBuffer: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(
                kCFAllocatorDefault, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &pixelBuffer)
                == kCVReturnSuccess)
        let buffer = try #require(pixelBuffer)
        #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 32 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 24)
        #expect(
            CVPixelBufferGetBaseAddressOfPlane(buffer, 2) == nil && CVPixelBufferGetBytesPerRowOfPlane(buffer, 5) == 0)
        CVPixelBufferLockBaseAddress(buffer, [])
        let luma = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 0)).assumingMemoryBound(to: UInt8.self)
        let chroma = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 1)).assumingMemoryBound(to: UInt8.self)
        for y in 0..<48 { for x in 0..<64 { luma[y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) + x] = 200 } }
        for y in 0..<24 { for x in 0..<64 { chroma[y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) + x] = 128 } }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        let image = try MPImage(pixelBuffer: buffer)
        #expect(image.width == 64 && image.height == 48 && image.imageSourceType == .pixelBuffer)
        let gray = image.bitmap.rgb(x: 10, y: 10)
        #expect(gray == (200, 200, 200))
        #expect(
            CVPixelBufferCreate(
                kCFAllocatorDefault, 63, 48, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, nil, &pixelBuffer)
                == kCVReturnInvalidSize)
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, 0x1234_5678, nil, &pixelBuffer)
                == kCVReturnInvalidPixelFormat)
    }

    @Test("float buffers become an MPImage; the tasks refuse them as MediaPipe does (code 3)")
    func floatBuffer() throws {
        var pixelBuffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 32, 16, kCVPixelFormatType_OneComponent32Float, nil, &pixelBuffer)
        let buffer = try #require(pixelBuffer)
        CVPixelBufferLockBaseAddress(buffer, [])
        let floats = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: Float.self)
        floats[0] = 0.5
        CVPixelBufferUnlockBaseAddress(buffer, [])
        let image = try MPImage(pixelBuffer: buffer)
        #expect(image.width == 32 && image.bitmap.pixels[0] == 128)
        do {
            _ = try ObjectDetector(modelPath: Self.detectorPath).detect(image: image)
            Issue.record("a float buffer was accepted")
        } catch let error as NSError {
            #expect(error.domain == "com.google.mediapipe.tasks" && error.code == 3)
            #expect(error.localizedDescription == "Unsupported format: 9")
        }
        do {
            _ = try ImageClassifier(modelPath: Self.birdsPath).classify(image: image)
            Issue.record("a float buffer was accepted")
        } catch let error as NSError {
            #expect(error.code == 3 && error.localizedDescription == "Unsupported format: 9")
        }
    }

    @Test("UIImage(named:) finds a picture in the working directory, with or without its extension")
    func named() throws {
        let found = try #require(UIImage(named: "Tests/Fixtures/jpeg/gray"))
        #expect(found.size.width > 0)
        #expect(UIImage(named: "Tests/Fixtures/jpeg/gray.jpg")?.size == found.size)
        #expect(UIImage(named: "no-such-picture") == nil && UIImage(named: "") == nil)
        #expect(UIImage(named: "Tests/Fixtures") == nil)  // a folder is not a picture
    }

    @Test("errors are NSErrors: `catch let error as NSError` reads domain, code and message")
    func nsErrors() {
        do {
            _ = try ObjectDetector(modelPath: "/nonexistent/model.tflite")
            Issue.record("no error")
        } catch let error as NSError {
            #expect(error.domain == "com.google.mediapipe.tasks")
            #expect(error.code == Int(TasksErrorCode.notFoundError.rawValue))
            #expect(error.localizedDescription.contains("/nonexistent/model.tflite"))
        }
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Self.detectorPath
        options.runningMode = .liveStream
        do {
            _ = try ObjectDetector(options: options)
            Issue.record("no error")
        } catch let error as TasksError {
            #expect(error.tasksCode == .invalidArgumentError && error.code == 3)
        } catch {
            Issue.record("not a TasksError: \(error)")
        }
    }
}
