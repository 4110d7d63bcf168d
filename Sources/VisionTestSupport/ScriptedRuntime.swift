import FileInput
import Foundation
import LiteRT
import Locking
import TFLiteModel
import VisionCore

/// A fake inference runtime for tests of everything around the model — post-processing, YOLO
/// decoding, running modes, live-stream dropping, stream sessions — with no `libLiteRt.so`: a model
/// "loaded" by it declares the model file's own input and output tensors (shapes, types,
/// quantization), and each run gives the outputs its script returns for that run. It records how
/// many runs happened and the last input the preprocessor wrote.
package struct ScriptedRuntime: InferenceRuntime {
    /// The outputs of run `run` (0-based, counted over every model the runtime compiled), given the
    /// input's bytes: one byte array per output, in the model file's output order.
    package typealias Script = @Sendable (_ run: Int, _ input: [UInt8]) throws -> [[UInt8]]

    /// What the runs did.
    package struct Log: Sendable {
        /// Runs so far.
        package var runs = 0
        /// The input bytes of the last run.
        package var lastInput: [UInt8] = []
        /// Compiled instances so far.
        package var compiled = 0
    }

    private let script: Script
    private let delay: TimeInterval
    /// Shared by every model this runtime loaded.
    package let log = Locked(Log())

    /// Each run sleeps `delay` seconds (a slow model), then gives `script`'s outputs.
    package init(delay: TimeInterval = 0, script: @escaping Script) {
        self.delay = delay
        self.script = script
    }

    /// Every run gives these float32 outputs.
    package init(delay: TimeInterval = 0, floats: [[Float]]) {
        let bytes = floats.map(Self.bytes)
        self.init(delay: delay) { _, _ in bytes }
    }

    /// The bytes of float32 values.
    package static func bytes(_ floats: [Float]) -> [UInt8] {
        floats.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }

    package func load(_ bytes: FileBytes, customOps: [String]) throws -> any LoadedModel {
        let file = try ModelFile(data: bytes)
        guard let subgraph = file.subgraphs.first else { throw TestSupportError("the model has no subgraph") }
        return Loaded(
            inputs: try subgraph.inputTensors.map(Self.describe),
            outputs: try subgraph.outputTensors.map(Self.describe),
            runtime: self)
    }

    /// A model file's tensor as a compiled model declares it (dynamic dimensions as 1).
    static func describe(_ t: Tensor) throws -> TensorDescription {
        let types: [TensorType: ElementType] = [
            .float32: .float32, .float16: .float16, .int32: .int32, .uint8: .uint8, .int64: .int64, .bool: .bool,
            .int16: .int16,
            .int8: .int8,
        ]
        guard let type = types[t.type] else {
            throw TestSupportError("tensor \(t.name): type \(t.type) is not scripted")
        }
        let shape = t.shape.map { max($0, 1) }  // [] stays open: the script's outputs size it
        let quantization = t.quantization.flatMap { q in
            q.isPerTensor ? Quantization(scale: q.scales[0], zeroPoint: q.zeroPoints.first ?? 0) : nil
        }
        return TensorDescription(
            name: t.name, elementType: type, shape: shape, quantization: quantization,
            byteCount: shape.reduce(1, *) * type.byteSize)
    }

    func run(_ input: [UInt8]) throws -> [[UInt8]] {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let run = log.withLock { log in
            defer { log.runs += 1 }
            log.lastInput = input
            return log.runs
        }
        return try script(run, input)
    }

    private struct Loaded: LoadedModel {
        let inputs: [TensorDescription]
        let outputs: [TensorDescription]
        let runtime: ScriptedRuntime

        func compile(threads: Int) throws -> any InferenceModel {
            runtime.log.withLock { $0.compiled += 1 }
            return ScriptedModel(inputs: inputs, outputs: outputs, runtime: runtime)
        }
    }
}

/// One compiled instance of a ``ScriptedRuntime`` model. An output whose shape the model file leaves
/// open (`[]`, as `TFLite_Detection_PostProcess` outputs) takes the size the script gives it, as a
/// runtime sizes it once allocated.
// @unchecked Sendable: the buffers and output descriptions are used only under `lock` (every method
// goes through `invoke`).
final class ScriptedModel: InferenceModel, @unchecked Sendable {
    let inputs: [TensorDescription]
    private var declared: [TensorDescription]
    var outputs: [TensorDescription] { invoke { declared } }
    private let runtime: ScriptedRuntime
    private let lock = NSRecursiveLock()
    /// Outputs whose shape the model file leaves open.
    private let open: [Bool]
    private var input: [[UInt8]]
    private var results: [[UInt8]]

    init(inputs: [TensorDescription], outputs: [TensorDescription], runtime: ScriptedRuntime) {
        self.inputs = inputs
        self.declared = outputs
        self.runtime = runtime
        open = outputs.map { $0.shape.isEmpty }
        input = inputs.map { [UInt8](repeating: 0, count: $0.byteCount) }
        results = outputs.map { [UInt8](repeating: 0, count: $0.byteCount) }
    }

    func invoke<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    func withInput<T>(_ index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> T) throws -> T {
        try invoke {
            guard input.indices.contains(index) else { throw TestSupportError("input \(index) does not exist") }
            return try input[index].withUnsafeMutableBytes(body)
        }
    }

    func run() throws {
        try invoke {
            let given = try runtime.run(input.first ?? [])
            guard given.count == declared.count else {
                throw TestSupportError("the script gave \(given.count) outputs for \(declared.count)")
            }
            for (i, bytes) in given.enumerated() where bytes.count != declared[i].byteCount {
                let size = declared[i].elementType.byteSize
                guard open[i], size > 0, bytes.count % size == 0 else {
                    throw TestSupportError(
                        "output \(i) (\(declared[i].name)) takes \(declared[i].byteCount) bytes, the script gave "
                            + "\(bytes.count)"
                    )
                }
                declared[i].shape = [bytes.count / size]
                declared[i].byteCount = bytes.count
            }
            results = given
        }
    }

    func withOutput<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try invoke {
            guard results.indices.contains(index) else { throw TestSupportError("output \(index) does not exist") }
            return try results[index].withUnsafeBytes(body)
        }
    }
}
