import Foundation
import TFLiteModel
import Testing
import VisionTestSupport

@Suite("The model reader", .enabled(if: TestAssets.shouldRun))
struct ModelReaderTests {
    struct Expected {
        var input: (String, [Int], TensorType, Float?, Int64?)
        var outputs: [(String, [Int], TensorType)]
        var ops: Set<String>
    }

    // Facts from shared/models/PROVENANCE.md.
    static let expected: [String: Expected] = [
        "ssd_mobilenet_v1_coco_quant_no_metadata.tflite": Expected(
            input: ("normalized_input_image_tensor", [1, 300, 300, 3], .uint8, 0.0078125, 128),
            outputs: [
                ("TFLite_Detection_PostProcess", [], .float32), ("TFLite_Detection_PostProcess:1", [], .float32),
                ("TFLite_Detection_PostProcess:2", [], .float32), ("TFLite_Detection_PostProcess:3", [], .float32),
            ],
            ops: [
                "CONV_2D", "DEPTHWISE_CONV_2D", "CONCATENATION", "LOGISTIC", "RESHAPE",
                "CUSTOM:TFLite_Detection_PostProcess",
            ]),
        "ssd_mobilenet_v1_coco_quant_metadata.tflite": Expected(
            input: ("normalized_input_image_tensor", [1, 300, 300, 3], .uint8, 0.0078125, 128),
            outputs: [
                ("TFLite_Detection_PostProcess", [], .float32), ("TFLite_Detection_PostProcess:1", [], .float32),
                ("TFLite_Detection_PostProcess:2", [], .float32), ("TFLite_Detection_PostProcess:3", [], .float32),
            ],
            ops: [
                "CONV_2D", "DEPTHWISE_CONV_2D", "CONCATENATION", "LOGISTIC", "RESHAPE",
                "CUSTOM:TFLite_Detection_PostProcess",
            ]),
        "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite": Expected(
            input: ("serving_default_input:0", [1, 320, 320, 3], .float32, nil, nil),
            outputs: [
                ("StatefulPartitionedCall:3", [], .float32), ("StatefulPartitionedCall:2", [], .float32),
                ("StatefulPartitionedCall:1", [], .float32), ("StatefulPartitionedCall:0", [], .float32),
            ],
            ops: [
                "ADD", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "LOGISTIC", "PACK", "RESHAPE",
                "CUSTOM:TFLite_Detection_PostProcess",
            ]),
        "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_no_metadata.tflite": Expected(
            input: ("serving_default_input:0", [1, 320, 320, 3], .float32, nil, nil),
            outputs: [
                ("StatefulPartitionedCall:3", [], .float32), ("StatefulPartitionedCall:2", [], .float32),
                ("StatefulPartitionedCall:1", [], .float32), ("StatefulPartitionedCall:0", [], .float32),
            ],
            ops: [
                "ADD", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "LOGISTIC", "PACK", "RESHAPE",
                "CUSTOM:TFLite_Detection_PostProcess",
            ]),
        "face_detection_short_range.tflite": Expected(
            input: ("input", [1, 128, 128, 3], .float32, nil, nil),
            outputs: [("regressors", [1, 896, 16], .float32), ("classificators", [1, 896, 1], .float32)],
            ops: [
                "ADD", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEQUANTIZE", "MAX_POOL_2D", "PAD", "RELU",
                "RESHAPE",
            ]),
        "face_detection_full_range_sparse.tflite": Expected(
            input: ("input_1", [1, 192, 192, 3], .float32, nil, nil),
            outputs: [("Identity", [1, 2304, 16], .float32), ("Identity_1", [1, 2304, 1], .float32)],
            ops: [
                "ADD", "CONV_2D", "DENSIFY", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE", "PAD", "RESHAPE",
                "RESIZE_BILINEAR",
            ]),
        "aiy_vision_classifier_birds_V1_3.tflite": Expected(
            input: ("module/hub_input/images_uint8", [1, 224, 224, 3], .uint8, 0.0078125, 128),
            outputs: [("module/prediction", [1, 965], .uint8)],
            ops: ["ADD", "AVERAGE_POOL_2D", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "SOFTMAX"]),
        "mobilenet_v2_1.0_224_inat_bird_quant.tflite": Expected(
            input: ("map/TensorArrayStack/TensorArrayGatherV3", [1, 224, 224, 3], .uint8, 0.0078125, 128),
            outputs: [("prediction", [1, 965], .uint8)],
            ops: ["ADD", "AVERAGE_POOL_2D", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "SOFTMAX"]),
        "mobilenet_v2_1.0_224_quant.tflite": Expected(
            input: ("input", [1, 224, 224, 3], .uint8, 0.0078125, 128),
            outputs: [("MobilenetV2/Predictions/Softmax", [1, 1001], .uint8)],
            ops: ["ADD", "AVERAGE_POOL_2D", "CONV_2D", "DEPTHWISE_CONV_2D", "RESHAPE", "SOFTMAX"]),
        "mobilenet_v1_0.25_128_quant.tflite": Expected(
            input: ("input", [1, 128, 128, 3], .uint8, 0.0078125, 128),
            outputs: [("MobilenetV1/Predictions/Reshape_1", [1, 1001], .uint8)],
            ops: ["AVERAGE_POOL_2D", "CONV_2D", "DEPTHWISE_CONV_2D", "RESHAPE", "SOFTMAX"]),
        "tf2_mobilenet_v2_1.0_224_ptq.tflite": Expected(
            input: ("input", [1, 224, 224, 3], .uint8, 0.00784314, 127),
            outputs: [("Identity", [1, 1001], .uint8)],
            ops: ["ADD", "CONV_2D", "DEPTHWISE_CONV_2D", "MEAN", "QUANTIZE", "RESHAPE", "SOFTMAX"]),
    ]

    @Test(
        "reads tensor names, shapes, types, quantization and op codes of every shared model",
        arguments: Array(expected.keys).sorted())
    func readsSharedModel(name: String) throws {
        let model = try ModelFile(contentsOfFile: TestAssets.model(name))
        let e = try #require(Self.expected[name])
        #expect(model.version == 3)
        #expect(model.subgraphs.count == 1)
        let sg = model.subgraphs[0]
        let input = try #require(sg.inputTensors.first)
        #expect(sg.inputs.count == 1)
        #expect(input.name == e.input.0)
        #expect(input.shape == e.input.1)
        #expect(input.type == e.input.2)
        if let scale = e.input.3 {
            #expect(abs((input.quantization?.scales.first ?? 0) - scale) < 1e-7)
            #expect(input.quantization?.zeroPoints == [e.input.4 ?? 0])
        } else {
            #expect(input.quantization == nil)
        }
        #expect(sg.outputTensors.map(\.name) == e.outputs.map(\.0))
        #expect(sg.outputTensors.map(\.shape) == e.outputs.map(\.1))
        #expect(sg.outputTensors.map(\.type) == e.outputs.map(\.2))
        #expect(Set(model.operatorNames()) == e.ops)
    }

    @Test("op sequence and tensor count match LiteRT's Python interpreter")
    func opsMatchInterpreter() throws {
        let golden = try Goldens.dictionary("litert.json")
        for (name, value) in golden {
            let g = try #require(value as? [String: Any])
            let model = try ModelFile(contentsOfFile: TestAssets.model(name))
            let ops = model.subgraphs[0].operators.map { model.operatorCodes[$0.opcodeIndex].shortName }
            #expect(ops == (g["ops"] as? [String]), "\(name)")
            let tensors = try #require(g["tensors"] as? [[Any]])
            let ours = model.subgraphs[0].tensors
            #expect(tensors.count >= ours.count)
            for (i, t) in ours.enumerated() where i < tensors.count {
                #expect(t.name == tensors[i][0] as? String, "\(name) tensor \(i)")
                // The interpreter reports [] outputs of the post-process op with their runtime shape.
                if !t.shape.isEmpty { #expect(t.shape == tensors[i][1] as? [Int], "\(name) tensor \(i) \(t.name)") }
                #expect(t.type.description.lowercased() == tensors[i][2] as? String, "\(name) tensor \(i)")
            }
            let inputs = try #require(g["inputs"] as? [[String: Any]])
            #expect(model.subgraphs[0].inputTensors.map(\.name) == inputs.map { $0["name"] as? String ?? "" })
            #expect(model.subgraphs[0].inputTensors.map(\.shape) == inputs.map { $0["shape"] as? [Int] ?? [] })
        }
    }

    @Test("reads TFLite_Detection_PostProcess options of both detectors")
    func readsPostProcessOptions() throws {
        let v1 = try #require(
            try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
                .detectionPostProcessOptions())
        #expect(
            v1
                == DetectionPostProcessOptions(
                    maxDetections: 10, maxClassesPerDetection: 1, detectionsPerClass: 100, numClasses: 90,
                    nmsScoreThreshold: 1e-8, nmsIouThreshold: 0.6, yScale: 10, xScale: 10, hScale: 5, wScale: 5,
                    useRegularNms: false))
        let v2 = try #require(
            try ModelFile(
                contentsOfFile: TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_no_metadata.tflite")
            ).detectionPostProcessOptions())
        #expect(
            v2.numClasses == 90 && v2.maxDetections == 10 && v2.nmsScoreThreshold == 0
                && abs(v2.nmsIouThreshold - 0.6) < 1e-6)
        #expect(
            try ModelFile(contentsOfFile: TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"))
                .detectionPostProcessOptions() == nil)
    }

    @Test("reads the detector's metadata: normalization, box properties, value labels")
    func readsDetectorMetadata() throws {
        let model = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let md = try #require(try model.modelMetadata())
        #expect(md.name == "ObjectDetector")
        #expect(md.minParserVersion == "1.2.0")
        let sg = try #require(md.subgraphs.first)
        #expect(sg.inputTensors.first?.normalization?.mean == [127.5])
        #expect(sg.inputTensors.first?.normalization?.std == [127.5])
        #expect(sg.inputTensors.first?.content?.properties == .image(colorSpace: .rgb, defaultSize: nil))
        #expect(sg.outputTensors.map { $0.name ?? "" } == ["location", "category", "score", "number of detections"])
        #expect(
            sg.outputTensors[0].content?.properties
                == .boundingBox(index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio))
        #expect(
            sg.outputTensors[1].associatedFiles == [
                ModelMetadata.AssociatedFile(
                    name: "labels.txt", description: sg.outputTensors[1].associatedFiles.first?.description,
                    type: .tensorValueLabels)
            ])
        #expect(sg.outputTensorGroups.count == 1)
        let labels = try #require(
            try LabelMap.load(
                tensor: sg.outputTensors[1], type: .tensorValueLabels, locale: "en", archive: model.associatedFiles()))
        #expect(labels.names.count == 90)
        #expect(labels.names[0] == "person" && labels.names[16] == "cat" && labels.names[17] == "dog")
        #expect(labels.displayNames == nil)
    }

    @Test("reads labels and display names by locale, and the score threshold, of the birds classifier")
    func readsLocalizedLabels() throws {
        let model = try ModelFile(contentsOfFile: TestAssets.model("aiy_vision_classifier_birds_V1_3.tflite"))
        let md = try #require(try model.modelMetadata())
        let out = try #require(md.subgraphs.first?.outputTensors.first)
        #expect(out.name == "probability")
        #expect(out.scoreThreshold == 0.2)
        let archive = try #require(try model.associatedFiles())
        #expect(Set(archive.names) == ["probability-labels.txt", "probability-labels-en.txt"])
        let en = try #require(try LabelMap.load(tensor: out, type: .tensorAxisLabels, locale: "en", archive: archive))
        #expect(en.names.count == 965)
        #expect(en.names[671] == "/m/01bwb9")
        #expect(en.displayNames?[671] == "Passer domesticus")
        #expect(en.names.last == "__background__" && en.displayNames?.last == "None")
        let fr = try #require(try LabelMap.load(tensor: out, type: .tensorAxisLabels, locale: "fr", archive: archive))
        #expect(fr.displayNames == nil)
        let imagenet = try ModelFile(contentsOfFile: TestAssets.model("mobilenet_v2_1.0_224_quant.tflite"))
        let t = try #require(try imagenet.modelMetadata()?.subgraphs.first?.outputTensors.first)
        let labels = try #require(
            try LabelMap.load(tensor: t, type: .tensorAxisLabels, locale: nil, archive: imagenet.associatedFiles()))
        #expect(labels.names.count == 1001 && labels.names[0] == "background")
        #expect(
            try TestAssets.bytes(TestAssets.model("imagenet_labels.txt"))
                == imagenet.associatedFiles()?.contents(of: "imagenet_labels.txt"))
    }

    @Test("models without metadata have none and no zip")
    func noMetadata() throws {
        let model = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_no_metadata.tflite"))
        #expect(try model.modelMetadata() == nil)
        #expect(try model.associatedFiles() == nil)
        #expect(!model.metadataEntries.contains { $0.name == "TFLITE_METADATA" })
    }

    @Test("a truncated model is a typed error, at every length")
    func truncated() throws {
        let bytes = try TestAssets.bytes(TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"))
        for length in [0, 3, 7, 8, 16, 100, 4096, bytes.count / 2] {
            do {
                let m = try ModelFile(bytes: Array(bytes.prefix(length)))
                // A prefix that happens to parse must still fail when its buffers are read.
                for i in 0..<m.bufferCount { _ = try m.buffer(i) }
                Issue.record("prefix of \(length) bytes parsed")
            } catch let e as TFLiteModelError {
                #expect(e.code == .truncated || e.code == .invalidFlatBuffer, "\(e)")
            }
        }
    }

    @Test("a garbage file is refused with MediaPipe's wording")
    func garbage() throws {
        var rng = TestRandom(state: TestRandom.seed(default: 0x0BAD_F11E))
        let junk = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        #expect(throws: TFLiteModelError.self) { try ModelFile(bytes: junk) }
        do {
            _ = try ModelFile(bytes: Array("this is not a model at all".utf8))
            Issue.record("text parsed as a model")
        } catch let e as TFLiteModelError {
            #expect(e.code == .invalidFlatBuffer)
            #expect(e.message.hasPrefix("The model is not a valid FlatBuffer buffer"))
        }
    }

    @Test("mutated models never crash the reader: every refusal is a typed error with a message")
    func mutationsNeverTrap() throws {
        let bytes = try TestAssets.bytes(TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let seed = TestRandom.seed(default: 0x5EED_2026)
        var rng = TestRandom(state: seed)
        var refused = 0
        var parsed = 0
        /// Runs one reader call: a result, or a `TFLiteModelError` with a message; anything else is a failure.
        func check<T>(_ what: String, _ round: Int, _ body: () throws -> T) -> T? {
            do {
                return try body()
            } catch let e as TFLiteModelError {
                refused += 1
                #expect(!e.message.isEmpty, "seed \(seed), round \(round): \(what) refused without a message")
            } catch {
                Issue.record("seed \(seed), round \(round): \(what) threw an untyped error: \(error)")
            }
            return nil
        }
        // Mutate the flatbuffer's head (tables, vtables, offsets) and the metadata/zip at the tail.
        for round in 0..<300 {
            var copy = bytes
            for _ in 0..<8 {
                let region = round % 2 == 0 ? 0..<min(4096, copy.count) : (copy.count - 3000)..<copy.count
                copy[Int.random(in: region, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            guard let model = check("ModelFile", round, { try ModelFile(bytes: copy) }) else { continue }
            parsed += 1
            _ = check("modelMetadata", round) { try model.modelMetadata() }
            _ = check("detectionPostProcessOptions", round) { try model.detectionPostProcessOptions() }
            if let zip = check("associatedFiles", round, { try model.associatedFiles() }) ?? nil {
                for e in zip.entries { _ = check("zip entry \(e.name)", round) { try zip.contents(of: e) } }
            }
            for i in 0..<min(model.bufferCount, 64) { _ = check("buffer \(i)", round) { try model.buffer(i) } }
        }
        // Both outcomes are exercised: damage that the reader refuses, and damage it reads past.
        #expect(refused > 0 && parsed > 0, "seed \(seed): \(refused) refusals, \(parsed) models parsed")
    }
}
