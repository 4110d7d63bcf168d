import FileInput
import Foundation
import Imaging
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// Each class of input that crashed, hung or exhausted memory is a clean, typed error (or correct
/// output): regions of interest, options, non-regular files, models LiteRT would crash on,
/// metadata numbers, pixel layouts.
@Suite("Hardening: bad input is a clean error", .enabled(if: TestAssets.shouldRun))
struct HardeningTests {
    static let classifierPath = TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")
    static let detectorPath = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")

    static func failure(_ body: () throws -> Void) -> (code: Int, message: String)? {
        do { try body(); return nil } catch let e as NSError { return (e.code, e.localizedDescription) }
    }

    @Test(
        """
        errors keep their cause: TasksError → VisionCoreError → the file layer's error; a garbage model → \
        TFLiteModelError
        """
    )
    func causes() throws {
        do {
            _ = try ObjectDetector(modelPath: "/nonexistent/model.tflite")
            Issue.record("a missing model was accepted")
        } catch let e as TasksError {
            #expect(e.code == 5 && e.message == "NOT_FOUND: Unable to open file at /nonexistent/model.tflite")
            let core = try #require(e.underlyingError as? VisionCoreError)
            #expect(core.code == .notFound)
            let file = try #require(core.underlying as? FileInputError)
            #expect(file.code == .notFound)
            #expect((e.userInfo[NSUnderlyingErrorKey] as? VisionCoreError) == core)
        }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vt-garbage-\(UUID().uuidString).tflite")
        try Data((0..<256).map { UInt8($0) }).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        do {
            _ = try ObjectDetector(modelPath: garbage.path)
            Issue.record("a garbage model was accepted")
        } catch let e as TasksError {
            #expect(e.code == 3)
            let core = try #require(e.underlyingError as? VisionCoreError)
            #expect(core.underlying is TFLiteModelError, "\(String(describing: core.underlying))")
        }
    }

    @Test("regions of interest are checked with MediaPipe's messages in every mode, 1e38 included")
    func regions() throws {
        let image = try MPImage(contentsOfFile: TestAssets.image("dog.jpg"))
        let classifier = try ImageClassifier(modelPath: Self.classifierPath)
        let cases: [(CGRect, String)] = [
            (CGRect(x: 0, y: 0, width: 1e38, height: 1), "Expected RectF values to be in [0,1]."),
            (CGRect(x: -1, y: -1, width: 2, height: 2), "Expected RectF values to be in [0,1]."),
            (CGRect(x: 0.5, y: 0, width: -0.3, height: 1), "Expected RectF with left < right and top < bottom."),
            (CGRect(x: 0.2, y: 0.2, width: 0, height: 0.5), "Expected RectF with left < right and top < bottom."),
            (CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1), "ROI contains NaN values."),
        ]
        let videoOptions = ImageClassifierOptions()
        videoOptions.baseOptions.modelAssetPath = Self.classifierPath
        videoOptions.runningMode = .video
        let video = try ImageClassifier(options: videoOptions)
        let collector = ClassificationCollector()
        let liveOptions = ImageClassifierOptions()
        liveOptions.baseOptions.modelAssetPath = Self.classifierPath
        liveOptions.runningMode = .liveStream
        liveOptions.imageClassifierLiveStreamDelegate = collector
        let live = try ImageClassifier(options: liveOptions)
        for (i, (roi, message)) in cases.enumerated() {
            let image1 = Self.failure { _ = try classifier.classify(image: image, regionOfInterest: roi) }
            #expect(image1?.code == 3 && image1?.message == message, "\(roi)")
            let video1 = Self.failure {
                _ = try video.classify(videoFrame: image, timestampInMilliseconds: i, regionOfInterest: roi)
            }
            #expect(video1?.code == 3 && video1?.message == message, "\(roi)")
            let live1 = Self.failure {
                try live.classifyAsync(image: image, timestampInMilliseconds: i, regionOfInterest: roi)
            }
            #expect(live1?.code == 3 && live1?.message == message, "\(roi)")
        }
        // The region that covers the whole picture still classifies.
        #expect(
            try classifier.classify(image: image, regionOfInterest: CGRect(x: 0, y: 0, width: 1, height: 1))
                .classificationResult.classifications.count == 1)
    }

    @Test("options: NaN threshold and thread counts outside 1…256 are code 3")
    func options() {
        for threads in [0, -1, 257, Int.max, Int.min] {
            let options = ObjectDetectorOptions()
            options.baseOptions.modelAssetPath = Self.detectorPath
            options.baseOptions.numThreads = threads
            let f = Self.failure { _ = try ObjectDetector(options: options) }
            #expect(f?.code == 3 && f?.message == "numThreads must be between 1 and 256, got \(threads).")
        }
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.classifierPath
        options.scoreThreshold = .nan
        let f = Self.failure { _ = try ImageClassifier(options: options) }
        #expect(f?.code == 3 && f?.message == "scoreThreshold must be a number, got nan.")
    }

    @Test("FIFOs, devices, directories and empty files as models or pictures: code 3 at once, never a hang")
    func files() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo.tflite").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let empty = dir.appendingPathComponent("empty.tflite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let start = Date()
        for path in [fifo, "/dev/zero", dir.path, empty] {
            let f = Self.failure { _ = try ObjectDetector(modelPath: path) }
            #expect(f?.code == 3, "\(path): \(f?.message ?? "accepted")")
        }
        #expect(Self.failure { _ = try MPImage(contentsOfFile: fifo) }?.code == 3)
        #expect(Self.failure { _ = try MPImage(contentsOfFile: "/dev/zero") }?.code == 3)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("a model LiteRT would crash on is refused before it reaches the runtime")
    func unsafeModels() throws {
        var b = ModelBuilder(description: "bad conv")
        b.checksReferences = false
        let input = b.addTensor(Tensor(name: "image", shape: [1, 8, 8, 3], type: .float32))
        let weights = b.addConstant(name: "w", shape: [1, 1, 1, 3], floats: [1, 1, 1])
        let output = b.addTensor(Tensor(name: "out", shape: [1, 8, 8, 1], type: .float32))
        b.operators = [
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 3)), inputs: [-1, weights, -1], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(try b.build())
        let f = Self.failure { _ = try ImageClassifier(options: options) }
        #expect(
            f?.code == 3
                && f?.message
                    == "INVALID_ARGUMENT: The model cannot be run safely: operator 0 (CONV_2D) of subgraph 0 lacks "
                    + "input 0.",
            "\(f?.message ?? "accepted")")
    }

    @Test("DETECTOR_METADATA with a negative keypoint offset is code 3, not an out-of-range read")
    func keypointOffset() throws {
        let anchors: [DetectorMetadata.Anchor] = [.init(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.2)]
        let model = try SyntheticModels.rawSSD(
            boxes: [0, 0, 0, 0], scores: [2], classes: 1, anchors: anchors, labels: ["a"],
            keypoints: (offset: -4, count: 1, values: 2))
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetBuffer = Data(model)
        let f = Self.failure {
            _ = try ObjectDetector(options: options).detect(
                image: MPImage(bitmap: try Bitmap(width: 8, height: 8, format: .rgb8)))
        }
        #expect(f?.code == 3 && f?.message.contains("keypoints do not fit") == true, "\(f?.message ?? "accepted")")
    }

    @Test("pixel layouts from callers: negative sizes and overflowing strides throw")
    func layouts() {
        #expect(throws: ImagingError.self) { try Bitmap(width: -1, height: 4, format: .rgb8, pixels: []) }
        #expect(throws: ImagingError.self) { try Bitmap(width: -1, height: 4, format: .rgb8) }
        #expect(throws: ImagingError.self) { try Bitmap(width: 40_000, height: 40_000, format: .rgba8) }
        #expect(throws: ImagingError.self) {
            try Bitmap(
                width: 2, height: 2, format: .rgb8, pixels: [UInt8](repeating: 0, count: 12), bytesPerRow: Int.max)
        }
        #expect(throws: ImagingError.self) {
            try CVPixelBuffer(
                width: 2, height: 2, pixelFormatType: kCVPixelFormatType_32BGRA,
                bytes: [UInt8](repeating: 0, count: 16), bytesPerRow: Int.max / 2)
        }
        #expect(throws: ImagingError.self) {
            try CVPixelBuffer(
                width: 4, height: 4, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                bytes: [UInt8](repeating: 0, count: 24), chromaOffset: Int.max - 8)
        }
    }

    @Test("a PNG header declaring 32768×32768 pixels is refused before its pixels are allocated")
    func hugePNG() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            func be(_ v: UInt32) -> [UInt8] {
                [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            }
            return be(UInt32(data.count)) + body + be(crc)
        }
        let ihdr: [UInt8] = [0, 0, 0x80, 0, 0, 0, 0x80, 0, 8, 2, 0, 0, 0]  // 32768×32768 RGB8
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0, 0, 0, 0, 1]) + chunk("IEND", [])
        let before = ProcessMemory.residentBytes()
        do {
            _ = try ImageDecoder.decode(png)
            Issue.record("decoded")
        } catch let e as ImagingError {
            #expect(e.code == .tooLarge && e.message.contains("32768x32768"), "\(e)")
        }
        // The whole process's memory, which suites running beside this one also move (by up to ~100 MB):
        // decoding the declared picture would take 32768×32768×3 = 3 GiB, far over this bound.
        #expect(ProcessMemory.residentBytes() - before < 1 << 30)
    }
}
