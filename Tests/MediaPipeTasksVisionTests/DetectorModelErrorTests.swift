import Foundation
import MediaPipeTasksVision
import TFLiteModel
import Testing
import VisionTestSupport

/// Each model error of the reference's detector tables, triggered with synthetic models.
@Suite("ObjectDetector model errors", .enabled(if: TestAssets.shouldRun))
struct DetectorModelErrorTests {
    static let anchors: [DetectorMetadata.Anchor] = [.init(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5)]

    static func base() throws -> ModelFile {
        try ModelFile(
            bytes: try SyntheticModels.rawSSD(
                boxes: [0, 0, 0, 0], scores: [1], classes: 1, anchors: anchors, labels: ["thing"]))
    }

    /// The base model with its metadata changed by `edit`.
    static func variant(
        _ edit: (inout ModelMetadata) -> Void,
        files: [(name: String, contents: [UInt8])] = [("labels.txt", Array("thing".utf8))]
    ) throws -> Data {
        let file = try base()
        var metadata = try #require(try file.modelMetadata())
        edit(&metadata)
        return Data(try file.replacingMetadata(metadata, files: files))
    }

    static func message(_ model: Data, _ configure: (ObjectDetectorOptions) -> Void = { _ in }) -> String? {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetBuffer = model
        configure(options)
        do { _ = try ObjectDetector(options: options); return nil } catch let e as TasksError { return e.message } catch
        { return "\(error)" }
    }

    @Test("the synthetic raw SSD model itself loads")
    func baseLoads() throws {
        #expect(Self.message(Data(try Self.base().bytes)) == nil)
    }

    @Test("a model with two subgraphs")
    func subgraphs() throws {
        let model = Data(
            try SyntheticModels.rawSSD(
                boxes: [0, 0, 0, 0], scores: [1], classes: 1, anchors: Self.anchors, labels: ["thing"], subgraphs: 2))
        #expect(Self.message(model) == "INVALID_ARGUMENT: Expected a model with a single subgraph, found 2.")
    }

    @Test("a model with neither 2 nor 4 outputs")
    func outputCount() throws {
        let model = Data(try SyntheticModels.addConstantWithMetadata(mean: [127.5], std: [127.5]))
        #expect(Self.message(model) == "INVALID_ARGUMENT: Expected a model with 2 or 4 output tensors, found 1.")
    }

    @Test("output metadata that does not match the outputs")
    func metadataCount() throws {
        #expect(
            Self.message(try Self.variant { $0.subgraphs[0].outputTensors.removeLast() })
                == "INVALID_ARGUMENT: Expected a model with 2 or 4 output tensors metadata, found 1.")
    }

    @Test("missing or wrong BoundingBoxProperties")
    func boundingBoxProperties() throws {
        #expect(
            Self.message(try Self.variant { $0.subgraphs[0].outputTensors[0].content = nil })
                == "INVALID_ARGUMENT: Expected BoundingBoxProperties for tensor location, found none.")
        #expect(
            Self.message(try Self.variant { $0.subgraphs[0].outputTensors[0].content = .init(properties: .feature) })
                == "INVALID_ARGUMENT: Expected BoundingBoxProperties for tensor location, found FeatureProperties.")
        #expect(
            Self.message(
                try Self.variant {
                    $0.subgraphs[0].outputTensors[0].content = .init(
                        properties: .boundingBox(index: [], type: .center, coordinateType: .ratio))
                }) == "INVALID_ARGUMENT: Mobile SSD only supports BoundingBoxType BOUNDARIES, found CENTER")
        #expect(
            Self.message(
                try Self.variant {
                    $0.subgraphs[0].outputTensors[0].content = .init(
                        properties: .boundingBox(index: [], type: .boundaries, coordinateType: .pixel))
                }) == "INVALID_ARGUMENT: Mobile SSD only supports CoordinateType RATIO, found PIXEL")
        #expect(
            Self.message(
                try Self.variant {
                    $0.subgraphs[0].outputTensors[0].content = .init(
                        properties: .boundingBox(index: [0, 1, 2], type: .boundaries, coordinateType: .ratio))
                }) == "INVALID_ARGUMENT: Expected BoundingBoxProperties index to contain 4 values, found 3")
    }

    @Test("a raw model without DETECTOR_METADATA")
    func detectorMetadata() throws {
        #expect(
            Self.message(try Self.variant { $0.subgraphs[0].customMetadata = [] })
                == "INVALID_ARGUMENT: TensorsDecodingOptions is not found in the object detector metadata.")
        let noAnchors = DetectorMetadata(
            anchors: nil,
            decoding: .init(numClasses: 1, numBoxes: 1, numCoords: 4, xScale: 10, yScale: 10, wScale: 5, hScale: 5))
        #expect(
            Self.message(
                try Self.variant {
                    $0.subgraphs[0].customMetadata = [.init(name: DetectorMetadata.name, data: noAnchors.flatBuffer())]
                })
                == "INVALID_ARGUMENT: SsdAnchorsOptions is not found in the object detector metadata.")
    }

    @Test("allow or deny lists on a model without labels")
    func listsWithoutLabels() throws {
        let model = try Self.variant({ $0.subgraphs[0].outputTensors[1].associatedFiles = [] }, files: [])
        #expect(Self.message(model) == nil)
        let expected =
            "INVALID_ARGUMENT: Using `category_allowlist` or `category_denylist` requires labels to be present in the "
            + "TFLite Model Metadata but none was found."
        #expect(Self.message(model) { $0.categoryAllowlist = ["thing"] } == expected)
        #expect(Self.message(model) { $0.categoryDenylist = ["thing"] } == expected)
    }

    @Test("a label file named in metadata but missing from the model")
    func missingLabelFile() throws {
        #expect(
            Self.message(try Self.variant({ _ in }, files: [])) == "NOT_FOUND: No associated file with name: labels.txt"
        )
    }

    @Test("a float input without normalization")
    func normalization() throws {
        #expect(
            Self.message(try Self.variant { $0.subgraphs[0].inputTensors[0].processUnits = [] })
                == "NOT_FOUND: Input tensor has type float32: it requires specifying NormalizationOptions metadata to "
                + "preprocess input images."
        )
    }

    @Test("score calibration without its parameters file")
    func calibration() throws {
        // In-model-NMS detector: the shared SSD with ScoreCalibrationOptions added to its score tensor.
        let ssd = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        var metadata = try #require(try ssd.modelMetadata())
        metadata.subgraphs[0].outputTensors[2].processUnits = [
            .scoreCalibration(transformation: .identity, defaultScore: 0)
        ]
        let labels = try #require(try ssd.associatedFiles()).contents(of: "labels.txt")
        let model = Data(try ssd.replacingMetadata(metadata, files: [("labels.txt", labels)]))
        #expect(
            Self.message(model)
                == "NOT_FOUND: Found ScoreCalibrationOptions but missing required associated parameters file with "
                + "type TENSOR_AXIS_SCORE_CALIBRATION."
        )
    }

    @Test("metadata with a wrong identifier inside a model")
    func metadataIdentifier() throws {
        // Write metadata, then damage its file identifier inside the model's bytes.
        let good = ModelMetadata(name: "placeholder").flatBuffer()
        var out = try Self.base().replacingMetadata(ModelMetadata(name: "placeholder"), files: [])
        let range = try #require(out.firstRange(of: good))
        out.replaceSubrange(range, with: Array(good[0..<4]) + Array("XXXX".utf8) + Array(good[8...]))
        #expect(Self.message(Data(out)) == "INVALID_ARGUMENT: Invalid metadata schema version: expected M001, got XXXX")
    }
}
