import Foundation
import Imaging
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

@Suite("Model input checks")
struct ModelChecksTests {
    static func spec(_ bytes: [UInt8], perChannel: Bool = false) throws -> ImageTensorSpec {
        try ImageTensorSpec(resources: try ModelResources(bytes: bytes), allowPerChannelNormalization: perChannel)
    }

    static func coreError(_ body: () throws -> Void) -> VisionCoreError? {
        do { try body(); return nil } catch let e as VisionCoreError { return e } catch { return nil }
    }

    @Test("a float input without normalization metadata is NOT_FOUND", .enabled(if: RuntimeCheck.shouldRun))
    func floatWithoutNormalization() throws {
        let e = Self.coreError { _ = try Self.spec(try SyntheticModels.addConstant()) }
        #expect(e?.code == .notFound)
        #expect(
            e?.description
                == "NOT_FOUND: Input tensor has type float32: it requires specifying NormalizationOptions metadata to "
                + "preprocess input images."
        )
    }

    @Test(
        "normalization from metadata; per-channel values are UNIMPLEMENTED unless allowed",
        .enabled(if: RuntimeCheck.shouldRun))
    func normalization() throws {
        let spec = try Self.spec(try SyntheticModels.addConstantWithMetadata(mean: [127.5], std: [127.5]))
        #expect(spec.element == .float32(mean: [127.5], std: [127.5]))
        #expect(spec.width == 4 && spec.height == 4 && spec.channels == 3)
        let perChannel = try SyntheticModels.addConstantWithMetadata(mean: [1, 2, 3], std: [4, 5, 6])
        let e = Self.coreError { _ = try Self.spec(perChannel) }
        #expect(e?.description == "UNIMPLEMENTED: Per-channel image normalization is not available.")
        #expect(try Self.spec(perChannel, perChannel: true).element == .float32(mean: [1, 2, 3], std: [4, 5, 6]))
        let zeroStd = try SyntheticModels.addConstantWithMetadata(mean: [1], std: [0])
        #expect(Self.coreError { _ = try Self.spec(zeroStd) }?.code == .internal)
        let mismatch = try SyntheticModels.addConstantWithMetadata(mean: [1, 2, 3], std: [1])
        #expect(
            Self.coreError { _ = try Self.spec(mismatch) }?.description
                == "INVALID_ARGUMENT: NormalizationOptions: expected mean and std of same dimension, got 3 and 1.")
    }

    @Test("model files: a directory and an unreadable path")
    func files() {
        let e = Self.coreError { _ = try ModelResources(path: "/tmp") }
        #expect(e?.code == .invalidArgument)
        let missing = Self.coreError { _ = try ModelResources(path: "/nonexistent/m.tflite") }
        #expect(missing?.description == "NOT_FOUND: Unable to open file at /nonexistent/m.tflite")
    }

    @Test("pixel boxes are truncated and clamped as MediaPipe does")
    func pixelBoxes() {
        let m = ImagePreprocessor.mapping(
            width: 100, height: 50, orientation: .up, roi: .full, dstWidth: 1, dstHeight: 1)
        // (0.9f − 0.5f) · 50 = 19.999998 in float: truncation gives 19, as in MediaPipe.
        #expect(
            DetectionPostprocessor.pixelBox(
                left: 0.105, top: 0.5, right: 0.2, bottom: 0.9, mapping: m, width: 100, height: 50)! == (10, 25, 9, 19))
        #expect(
            DetectionPostprocessor.pixelBox(
                left: -0.2, top: -0.1, right: 1.5, bottom: 0.5, mapping: m, width: 100, height: 50)! == (0, 0, 100, 30))
        #expect(
            DetectionPostprocessor.pixelBox(
                left: 0.5, top: 0.5, right: 0.4, bottom: 0.9, mapping: m, width: 100, height: 50) == nil)
        #expect(
            DetectionPostprocessor.pixelBox(
                left: .nan, top: 0.5, right: 0.4, bottom: 0.9, mapping: m, width: 100, height: 50) == nil)
        // Turned pictures: a box at the upright top-left lands at the stored bottom-left for .right.
        let r = ImagePreprocessor.mapping(
            width: 100, height: 50, orientation: .right, roi: .full, dstWidth: 1, dstHeight: 1)
        #expect(
            DetectionPostprocessor.pixelBox(
                left: 0, top: 0, right: 0.5, bottom: 0.1, mapping: r, width: 100, height: 50)! == (0, 25, 10, 25))
    }

    @Test("identical boxes are merged, categories appended")
    func merging() {
        let a = DetectionBox(x: 1, y: 2, width: 3, height: 4, categories: [Category(index: 1, score: 0.9)])
        let b = DetectionBox(x: 1, y: 2, width: 3, height: 4, categories: [Category(index: 7, score: 0.5)])
        let c = DetectionBox(x: 1, y: 2, width: 3, height: 5, categories: [Category(index: 2, score: 0.4)])
        let merged = DetectionPostprocessor.mergeIdentical([a, b, c])
        #expect(merged.count == 2)
        #expect(merged[0].categories.map(\.index) == [1, 7])
    }
}

/// Runtime availability for this target (CI fails instead of skipping).
enum RuntimeCheck {
    static var shouldRun: Bool {
        TestAssets.isCI
            || FileManager.default.fileExists(
                atPath: TestAssets.packageRoot.appendingPathComponent(".litert/lib/libLiteRt.so").path)
            || ProcessInfo.processInfo.environment["LITERT_LIBRARY"] != nil
    }
}

@Suite("Input tensor checks with MediaPipe's messages", .enabled(if: RuntimeCheck.shouldRun))
struct InputTensorCheckTests {
    /// A model whose inputs are `inputs` (each ADDed to itself), with optional input metadata content.
    static func model(
        inputs: [(shape: [Int], type: TensorType)],
        content: ModelMetadata.ContentProperties? = .image(colorSpace: .rgb, defaultSize: nil),
        normalization: Bool = true
    ) throws -> [UInt8] {
        var b = ModelBuilder(description: "input checks")
        let add = b.opcode(OperatorCode(builtinCode: 0))
        var outs: [Int] = []
        for (i, input) in inputs.enumerated() {
            let t = b.addTensor(
                Tensor(
                    name: "in\(i)", shape: input.shape, type: input.type,
                    quantization: input.type == .uint8 ? .init(scales: [1], zeroPoints: [0]) : nil))
            let o = b.addTensor(
                Tensor(
                    name: "out\(i)", shape: input.shape, type: input.type,
                    quantization: input.type == .uint8 ? .init(scales: [1], zeroPoints: [0]) : nil))
            b.operators.append(ModelBuilder.Op(opcodeIndex: add, inputs: [t, t], outputs: [o]))
            b.inputs.append(t)
            outs.append(o)
        }
        b.outputs = outs
        let metadata = ModelMetadata(
            name: "checks",
            subgraphs: [
                .init(
                    inputTensors: inputs.indices.map { _ in
                        .init(
                            name: "image", content: content.map { .init(properties: $0) },
                            processUnits: normalization ? [.normalization(mean: [0], std: [1])] : [])
                    },
                    outputTensors: outs.map { _ in .init(name: "out") })
            ])
        return try b.build(metadata: metadata, files: [])
    }

    static func message(_ bytes: [UInt8]) -> String? {
        do { _ = try ImageTensorSpec(resources: try ModelResources(bytes: bytes)); return nil } catch let e
            as VisionCoreError
        { return e.description } catch {
            return "\(error)"
        }
    }

    @Test("single input, 4-D, uint8 or float32, batch 1 and depth 3 or 4, RGB ImageProperties")
    func checks() throws {
        #expect(
            Self.message(try Self.model(inputs: [([1, 4, 4, 3], .float32), ([1, 4, 4, 3], .float32)]))
                == "INVALID_ARGUMENT: Image tflite models are assumed to have a single input.")
        #expect(
            Self.message(try Self.model(inputs: [([4, 4, 3], .float32)]))
                == "INVALID_ARGUMENT: Only 4D tensors in BHWD layout are supported.")
        #expect(
            Self.message(try Self.model(inputs: [([1, 4, 4, 3], .int32)]))
                == "INVALID_ARGUMENT: Type mismatch for input tensor in0. Requested one of these types: "
                + "uint8/float32, got INT32."
        )
        #expect(
            Self.message(try Self.model(inputs: [([1, 4, 4, 1], .float32)]))
                == "INVALID_ARGUMENT: The input tensor should have dimensions 1 x height x width x depth, where depth "
                + "= 3 or 4. Got 1 x 4 x 4 x 1."
        )
        #expect(
            Self.message(try Self.model(inputs: [([2, 4, 4, 3], .float32)]))?.hasPrefix(
                "INVALID_ARGUMENT: The input tensor should have dimensions") == true)
        #expect(
            Self.message(
                try Self.model(
                    inputs: [([1, 4, 4, 3], .float32)], content: .image(colorSpace: .grayscale, defaultSize: nil)))
                == "INVALID_ARGUMENT: Only RGB color space is supported for now.")
        #expect(
            Self.message(try Self.model(inputs: [([1, 4, 4, 3], .float32)], content: .feature))
                == "INVALID_ARGUMENT: Expected ImageProperties for tensor image, got FeatureProperties.")
        #expect(Self.message(try Self.model(inputs: [([1, 4, 4, 4], .float32)])) == nil)
        #expect(Self.message(try Self.model(inputs: [([1, 4, 4, 3], .uint8)], normalization: false)) == nil)
    }
}
