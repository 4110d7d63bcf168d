import Foundation
import Imaging
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// The detection and classification heads, the YOLO decoders and the stream session driven by a
/// scripted runtime (VisionTestSupport's `ScriptedRuntime`): the model files are real, their outputs
/// are given, and no `libLiteRt.so` is loaded (`LITERT_LIBRARY=/nonexistent` passes these).
@Suite("Heads and sessions on scripted inference (no runtime)")
struct ScriptedInferenceTests {
    static let ssd = "ssd_mobilenet_v1_coco_quant_metadata.tflite"
    static let yolo = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo").path

    /// A uniform picture.
    static func picture(width: Int, height: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, format: .rgb8, fill: (10, 20, 30))
    }

    /// SSD MobileNet v1's four outputs (locations, classes, scores, count) for the given detections.
    static func ssdOutputs(_ detections: [(box: [Float], classIndex: Float, score: Float)]) -> [[Float]] {
        var locations = [Float](repeating: 0, count: 40), classes = [Float](repeating: 0, count: 10)
        var scores = [Float](repeating: 0, count: 10)
        for (i, d) in detections.enumerated() {
            locations.replaceSubrange(i * 4..<(i + 1) * 4, with: d.box)
            classes[i] = d.classIndex
            scores[i] = d.score
        }
        return [locations, classes, scores, [Float(detections.count)]]
    }

    @Test(
        "MediaPipe's SSD head: boxes (ymin, xmin, ymax, xmax) to pixels, labels, threshold, lists, maxResults",
        .enabled(if: TestAssets.shouldRun))
    func ssdHead() throws {
        let runtime = ScriptedRuntime(
            floats: Self.ssdOutputs([
                ([0.25, 0.125, 0.75, 0.5], 17, 0.9), ([0, 0, 0.5, 0.5], 0, 0.6), ([0.5, 0.5, 1, 1], 17, 0.3),
            ]))
        let resources = try ModelResources(path: TestAssets.model(Self.ssd), runtime: runtime)
        let picture = try Self.picture(width: 200, height: 100)
        let all = try ObjectDetectionEngine(resources: resources, options: DetectorOptions()).detect(picture)
        #expect(
            all.map { [$0.x, $0.y, $0.width, $0.height] } == [[25, 25, 75, 50], [0, 0, 100, 50], [100, 50, 100, 50]])
        #expect(all.map { $0.categories.map(\.index) } == [[17], [0], [17]])
        #expect(all.first?.categories.first?.categoryName == "dog" && all.first?.categories.first?.score == 0.9)
        let kept = try ObjectDetectionEngine(resources: resources, options: DetectorOptions(scoreThreshold: 0.5))
            .detect(picture)
        #expect(kept.count == 2)
        let capped = try ObjectDetectionEngine(resources: resources, options: DetectorOptions(maxResults: 1)).detect(
            picture)
        #expect(capped.map(\.x) == [25])
        let denied = try ObjectDetectionEngine(
            resources: resources, options: DetectorOptions(categoryDenylist: ["dog"])
        ).detect(picture)
        #expect(denied.map { $0.categories.map(\.index) } == [[0]])
        // The preprocessor wrote the picture into the model's own input: 300×300 RGB of the one colour.
        let input = runtime.log.withLock { $0.lastInput }
        #expect(input.count == 300 * 300 * 3)
        #expect(
            stride(from: 0, to: input.count, by: 3).allSatisfy {
                input[$0] == 10 && input[$0 + 1] == 20 && input[$0 + 2] == 30
            })
        #expect(runtime.log.withLock { $0.runs } == 4)
    }

    @Test("a classifier's heads: float scores sorted, uint8 scores dequantized, threshold and maxResults")
    func classifierHeads() throws {
        let model = try SyntheticModels.classifier(heads: [
            .init(name: "animals", kind: .uint8, values: [0, 0, 0], labels: ["cat", "dog", "owl"]),
            .init(name: "quantized", kind: .uint8, values: [0, 0, 0], labels: ["a", "b", "c"]),
        ])
        // The heads' quantization is 1/255: 51 reads 0.2, 255 reads 1.
        let runtime = ScriptedRuntime { _, _ in [[25, 178, 51], [51, 255, 0]] }
        let resources = try ModelResources(bytes: model, runtime: runtime)
        let heads = try ImageClassificationEngine(resources: resources, options: ClassifierOptions()).classify(
            Self.picture(width: 8, height: 8))
        #expect(heads.map(\.headName) == ["animals", "quantized"])
        #expect(heads.first?.categories.map(\.categoryName) == ["dog", "owl", "cat"])
        #expect(heads.last?.categories.map(\.categoryName) == ["b", "a", "c"])
        let scale = Float(1.0 / 255)
        let dequantized: [Float] = [scale * 255, scale * 51, 0]
        #expect(heads.last?.categories.map(\.score) == dequantized)
        let top = try ImageClassificationEngine(
            resources: resources, options: ClassifierOptions(maxResults: 1, scoreThreshold: 0.5)
        )
        .classify(Self.picture(width: 8, height: 8))
        #expect(top.map { $0.categories.map(\.categoryName) } == [["dog"], ["b"]])
    }

    /// One YOLO anchor's values: centre-size box (normalized) and one class's score.
    struct Anchor {
        var cx: Float, cy: Float, w: Float, h: Float, classIndex: Int, score: Float
    }

    /// A `[1, 4 + classes, anchors]` head holding `anchors` at the first positions (the rest score 0).
    static func yoloHead(_ anchors: [Anchor], classes: Int, count: Int) -> [Float] {
        var values = [Float](repeating: 0, count: (4 + classes) * count)
        for (a, anchor) in anchors.enumerated() {
            for (row, v) in [anchor.cx, anchor.cy, anchor.w, anchor.h].enumerated() { values[row * count + a] = v }
            values[(4 + anchor.classIndex) * count + a] = anchor.score
        }
        return values
    }

    static let anchors = [
        Anchor(cx: 0.5, cy: 0.5, w: 0.25, h: 0.125, classIndex: 2, score: 0.9),
        // the same object, weaker: suppressed
        Anchor(cx: 0.5, cy: 0.505, w: 0.25, h: 0.125, classIndex: 2, score: 0.8),
        // another class on it: kept unless agnostic
        Anchor(cx: 0.5, cy: 0.5, w: 0.25, h: 0.125, classIndex: 5, score: 0.7),
        Anchor(cx: 0.1, cy: 0.9, w: 0.1, h: 0.1, classIndex: 1, score: 0.2),  // under Ultralytics' 0.25
    ]

    @Test(
        """
        a YOLO head: best class per anchor, Ultralytics' threshold, class-aware or agnostic NMS, boxes back through \
        the letterbox
        """
    )
    func yoloHead() throws {
        let path = Self.yolo + "/yolov8t_float32.tflite"
        let names = try #require(try ModelFile(contentsOfFile: path).ultralyticsMetadata()?.labels)
        let values = Self.yoloHead(Self.anchors, classes: 13, count: 756)
        let resources = try ModelResources(path: path, runtime: ScriptedRuntime(floats: [values]))
        // 384×192 letterboxed into 192×192: scale 0.5, 48 rows of grey above and below.
        let picture = try Self.picture(width: 384, height: 192)
        let engine = try ObjectDetectionEngine(resources: resources, options: DetectorOptions())
        if case .yolo = engine.head {} else { Issue.record("not decoded as YOLO") }
        #expect(engine.head.preferredJPEG == .openCV)
        let boxes = try engine.detect(picture)
        #expect(boxes.map { [$0.x, $0.y, $0.width, $0.height] } == [[144, 72, 96, 48], [144, 72, 96, 48]])
        #expect(boxes.map { $0.categories.map(\.index) } == [[2], [5]])
        #expect(boxes.first?.categories.first?.categoryName == names[2])
        let agnostic = try ObjectDetectionEngine(
            resources: resources, options: DetectorOptions(), yolo: YOLODecoding(classAgnostic: true))
        #expect(try agnostic.detect(picture).map { $0.categories.map(\.index) } == [[2]])
        let low = try ObjectDetectionEngine(resources: resources, options: DetectorOptions(scoreThreshold: 0.1)).detect(
            picture)
        #expect(low.count == 3 && low.last?.categories.first?.index == 1)
    }

    @Test("an int8 YOLO output reads through the same dequantizing reader: boxes within a pixel of the float output's")
    func yoloInt8() throws {
        let path = Self.yolo + "/yolov8t_int8io.tflite"
        let output = try #require(try ModelFile(contentsOfFile: path).subgraphs.first?.outputTensors.first)
        #expect(output.type == .int8)
        let q = try #require(output.quantization)
        let scale = q.scales[0], zero = Float(q.zeroPoints.first ?? 0)
        let values = Self.yoloHead(Self.anchors, classes: 13, count: 756)
        let bytes = values.map { UInt8(bitPattern: Int8(max(-128, min(127, ($0 / scale + zero).rounded())))) }
        let resources = try ModelResources(path: path, runtime: ScriptedRuntime { _, _ in [bytes] })
        let boxes = try ObjectDetectionEngine(resources: resources, options: DetectorOptions()).detect(
            Self.picture(width: 384, height: 192))
        #expect(boxes.count == 2)
        for b in boxes {
            #expect(
                abs(b.x - 144) <= 1 && abs(b.y - 72) <= 1 && abs(b.width - 96) <= 2 && abs(b.height - 48) <= 2, "\(b)")
        }
    }

    @Test("malformed Ultralytics metadata is refused, not guessed around")
    func malformedUltralyticsMetadata() throws {
        let zip = try ZipArchive.write([("metadata.json", Array("{\"names\": 7".utf8))], deflate: false)
        let model = try SyntheticModels.addConstant() + zip
        let resources = try ModelResources(bytes: model, runtime: ScriptedRuntime(floats: [[]]))
        do {
            _ = try ObjectDetectionEngine(resources: resources, options: DetectorOptions())
            Issue.record("accepted")
        } catch let e as VisionCoreError {
            #expect(
                e.code == .invalidArgument && e.message.hasPrefix("The model's Ultralytics metadata is malformed: "),
                "\(e)")
        }
    }

    @Test(
        "the stream session tracks a box moving across scripted frames under one ID", .enabled(if: TestAssets.shouldRun)
    )
    func streamSession() throws {
        // Frame n: one box moving 2 % of the width to the right per frame.
        let runtime = ScriptedRuntime { run, _ in
            let x = 0.1 + Float(run) * 0.02
            return Self.ssdOutputs([([0.2, x, 0.6, x + 0.3], 17, 0.9)]).map(ScriptedRuntime.bytes)
        }
        let resources = try ModelResources(path: TestAssets.model(Self.ssd), runtime: runtime)
        let localizer = ClassAgnosticLocalizer(
            engine: try ObjectDetectionEngine(resources: resources, options: DetectorOptions()))
        let session = StreamDetectionSession(
            options: StreamDetectionOptions(mode: .stream, maxObjects: 5), localizer: localizer, classifier: nil)
        let picture = try Self.picture(width: 400, height: 300)
        var ids: [Int?] = []
        var lefts: [Double] = []
        for frame in 0..<12 {
            let objects = try session.process(picture, orientation: .up, timestampMs: frame * 33)
            ids += objects.map(\.trackingID)
            lefts += objects.map(\.box.x)
        }
        #expect(Set(ids.compactMap { $0 }).count == 1, "\(ids)")
        #expect(lefts.count >= 8 && lefts == lefts.sorted(), "\(lefts)")
        #expect(runtime.log.withLock { $0.runs } == 12)
    }
}
