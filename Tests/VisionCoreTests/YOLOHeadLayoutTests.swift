import Foundation
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// Ultralytics' metadata and the YOLO output layouts on models exported by Ultralytics' own
/// exporter (scripts/yolo/make_fixtures.py: tiny YOLOv8 and YOLO26 trained on the shared photos,
/// Tests/Fixtures/yolo), and the refusal for outputs no YOLO decoder fits.
@Suite("YOLO models: Ultralytics metadata and output layouts")
struct YOLOHeadLayoutTests {
    static func fixture(_ name: String) throws -> ModelFile {
        try ModelFile(
            contentsOfFile: TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo").appendingPathComponent(
                name
            ).path)
    }

    static let names = [
        "bird", "giraffe", "cat", "chair", "person", "car", "bicycle", "dog", "tie", "zebra", "horse", "umbrella",
        "kite",
    ]

    @Test("metadata.json in the appended zip: names, input size, task, end to end, version")
    func metadata() throws {
        for (name, endToEnd) in [
            ("yolov8t_float32.tflite", false), ("yolov8t_int8.tflite", false), ("yolo26t_e2e_float32.tflite", true),
        ] {
            let meta = try #require(try Self.fixture(name).ultralyticsMetadata(), "\(name)")
            #expect(meta.labels == Self.names && meta.names.count == 13)
            #expect(
                meta.inputSize?.height == 192 && meta.inputSize?.width == 192 && meta.task == "detect"
                    && meta.version == "8.4.190")
            #expect(meta.endToEnd == endToEnd, "\(name)")
        }
        #expect(
            try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
                .ultralyticsMetadata() == nil)
        #expect(throws: TFLiteModelError(.invalidAssociatedFile, "Ultralytics' metadata.json is not a JSON object.")) {
            try UltralyticsMetadata(json: Array("[1, 2]".utf8))
        }
        #expect(
            throws: TFLiteModelError(
                .invalidAssociatedFile, "Ultralytics' metadata.json: names must map class indices to text, got x: cat.")
        ) {
            try UltralyticsMetadata(json: Array(#"{"names": {"x": "cat"}}"#.utf8))
        }
    }

    @Test("the layouts: channels-first head (float and int8), end to end; overrides; refusals naming the shapes")
    func layouts() throws {
        for name in ["yolov8t_float32.tflite", "yolov8t_int8.tflite"] {
            let file = try Self.fixture(name)
            #expect(
                try YOLOHeadLayout.resolve(file, metadata: file.ultralyticsMetadata())
                    == .channelsFirst(classes: 13, anchors: 756))
            // Without the metadata the anchor count of a 192×192 input (24² + 12² + 6²) still tells it.
            #expect(try YOLOHeadLayout.resolve(file, metadata: nil) == .channelsFirst(classes: 13, anchors: 756))
            #expect(
                try YOLOHeadLayout.resolve(file, metadata: nil, override: .channelsLast)
                    == .channelsLast(classes: 752, anchors: 17))
        }
        let e2e = try Self.fixture("yolo26t_e2e_float32.tflite")
        #expect(try YOLOHeadLayout.resolve(e2e, metadata: e2e.ultralyticsMetadata()) == .endToEnd(detections: 300))
        #expect(try YOLOHeadLayout.resolve(e2e, metadata: nil) == .endToEnd(detections: 300))
        #expect(
            YOLOHeadLayout.anchorCount(height: 320, width: 320) == 2100
                && YOLOHeadLayout.anchorCount(height: 640, width: 480) == 6300)
        let ssd = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let four = "No YOLO decoder fits this model's outputs ("
        do {
            _ = try YOLOHeadLayout.resolve(ssd, metadata: nil)
            Issue.record("SSD accepted")
        } catch let e as VisionCoreError {
            #expect(
                e.code == .invalidArgument && e.message.hasPrefix(four)
                    && e.message.contains("): 4 outputs. A YOLO detector has one output"))
            #expect(e.message.hasSuffix("name its layout in the detector's YOLO options (head)."))
            #expect(e.condition == nil)  // not a YOLO head the rules could not tell
        }
        let classifier = try ModelFile(contentsOfFile: TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"))
        do {
            _ = try YOLOHeadLayout.resolve(classifier, metadata: nil)
            Issue.record("classifier accepted")
        } catch let e as VisionCoreError {
            #expect(
                e.message
                    == "No YOLO decoder fits this model's outputs ([1, 1001] UINT8): the output is not [1, A, B]. A "
                    + "YOLO detector has one output, "
                    + "[1, 4+C, N] or [1, N, 4+C] with N = 1029 anchors for the 224×224 input, or [1, K, 6] final "
                    + "detections; if it is one of "
                    + "these, name its layout in the detector's YOLO options (head).")
            #expect(e.condition == nil)
        }
    }
}
