import CLiteRT
import Foundation

/// A model compiled for the CPU (XNNPACK) with its input and output buffers, ready to run.
///
/// Inputs are 64-byte-aligned host memory that LiteRT reads in place (zero copy): write them with
/// ``withInput(_:_:)``, call ``run()``, read outputs with ``withOutput(_:_:)``. Use ``invoke(_:)`` to do
/// the three under the model's lock when several threads share one compiled model; runs on one
/// compiled model are always serialized.
// @unchecked Sendable: the LiteRT handles and buffers are used only under `lock` (every method goes
// through ``invoke(_:)``), the descriptions are immutable, and the handles are destroyed in deinit.
package final class CompiledModel: @unchecked Sendable {
    /// The model this was compiled from (kept alive as long as this object).
    package let model: Model
    /// The number of CPU threads XNNPACK uses.
    package let threads: Int
    /// Inputs of signature 0, in the model's order.
    package let inputs: [TensorDescription]
    /// Outputs of signature 0, in the model's order, with shapes as allocated after compilation.
    package let outputs: [TensorDescription]

    private let api: FunctionTable
    private let handle: LiteRtCompiledModel
    private let options: LiteRtOptions
    private var inputBuffers: [LiteRtTensorBuffer?]
    private var outputBuffers: [LiteRtTensorBuffer?]
    private let inputMemory: [UnsafeMutableRawPointer]
    private let inputSizes: [Int]
    private let lock = NSRecursiveLock()
    private let customKernels: CustomKernels?
    /// LiteRT's profiler, when compiled with `profiling`.
    private let profiler: LiteRtProfiler?

    /// How many of the model's ops run on VisionTasks' own kernels.
    package let customKernelCount: Int

    /// The CPU path of the exact hybrid depthwise kernel ("avx512", "avx2" or "scalar").
    package static var hybridDepthwiseKernelPath: String { CustomKernels.hybridDepthwisePath }
    /// The CPU path of the exact 8-bit depthwise kernel ("vnni", "avx2", "neon" or "scalar").
    package static var quantizedDepthwiseKernelPath: String { CustomKernels.quantizedDepthwisePath }
    /// Whether the 8-bit depthwise kernel is faster than XNNPACK's here, and so a default: x86-64 with AVX2
    /// or VNNI; not aarch64, where its NEON path is exact but costs more instructions than XNNPACK's.
    package static var quantizedDepthwiseKernelPreferred: Bool { CustomKernels.quantizedDepthwisePreferred }
    /// The CPU path of the exact 1×1 convolution kernel's 8-bit kinds ("vnni", "avx2", "neon-dot" or
    /// "scalar").
    package static var conv1x1KernelPath: String { CustomKernels.conv1x1Path }
    /// Whether the 1×1 convolution kernel has a vector path on this CPU — AVX2 or AVX-512 VNNI on
    /// x86-64, the dot-product extension on aarch64 — and so is faster than XNNPACK's.
    package static var conv1x1KernelPreferred: Bool { CustomKernels.conv1x1Preferred }
    /// Whether the 1×1 kernel's hybrid kind (float input, int8 filter) equals LiteRT's on this CPU:
    /// x86-64 only (it reproduces XNNPACK's x86-64 dynamic quantization and float epilogue).
    package static var hybridConvKernelExact: Bool { CustomKernels.hybridConvExact }
    /// Whether the fused hybrid-1×1-into-depthwise op equals LiteRT's two ops on this CPU: x86-64 with
    /// FMA3 or AVX-512F, where XNNPACK's float depthwise kernels use fused multiply-adds.
    package static var convDepthwiseFusionExact: Bool { CustomKernels.convDepthwiseExact }
    /// The CPU path of the fused hybrid-1×1-into-depthwise op ("avx512", "avx2" or "scalar").
    package static var convDepthwiseKernelPath: String { CustomKernels.convDepthwisePath }
    /// Whether VisionTasks' kernels were compiled optimized (a release build). Unoptimized (a debug
    /// build, SwiftPM's default for a dependency of a debug app) they are exact but slow, and LiteRT's
    /// own kernels, which they equal bit for bit, are the default instead.
    package static var customKernelsOptimized: Bool { CustomKernels.optimized }

    /// Compiles `model` for the CPU with `threads` XNNPACK threads (≥ 1). `customOps` are the custom
    /// codes of the ops the model's rewrite moved onto VisionTasks' own kernels, in order (see
    /// `ModelFile.customKernelOps`). With `profiling`, LiteRT times every op of each run (for
    /// ``profile(runs:)``).
    package init(model: Model, threads: Int = 1, customOps: [String] = [], profiling: Bool = false) throws {
        guard threads >= 1 else {
            throw LiteRTError(code: .invalidArgument, message: "The thread count must be at least 1, got \(threads).")
        }
        self.model = model
        self.threads = threads
        let api = model.environment.library.api
        self.api = api

        var options: LiteRtOptions?
        try check(api.createOptions(&options), "LiteRtCreateOptions")
        guard let options else {
            throw LiteRTError(code: .callFailed, function: "LiteRtCreateOptions", message: "returned no options")
        }
        self.options = options
        var built = false
        defer { if !built { api.destroyOptions(options) } }
        try check(api.setOptionsHardwareAccelerators(options, 1), "LiteRtSetOptionsHardwareAccelerators")
        let kernels = try CustomKernels(codes: customOps, threads: threads, modelBytes: model.bytes, api: api)
        if !customOps.isEmpty && kernels == nil {
            throw LiteRTError(
                code: .symbolMissing, function: "LiteRtAddCustomOpKernelOption",
                message:
                    "This libLiteRt.so cannot run custom op kernels; load the model without VisionTasks' kernel "
                    + "rewrite."
            )
        }
        try kernels?.register(on: options, api: api)
        customKernels = kernels
        customKernelCount = kernels == nil ? 0 : customOps.count
        for id in ["xnnpack", "cpu_delegate"] {
            guard let payload = strdup("num_threads = \(threads)\n") else {
                throw LiteRTError(code: .callFailed, message: "Out of memory for the thread option.")
            }
            var opaque: LiteRtOpaqueOptions?
            let status = api.createOpaqueOptions(id, payload, { free($0) }, &opaque)
            if status != 0 { free(payload) }
            try check(status, "LiteRtCreateOpaqueOptions")
            try check(api.addOpaqueOptions(options, opaque), "LiteRtAddOpaqueOptions")
        }
        if profiling {
            guard api.profiler != nil else {
                throw LiteRTError(
                    code: .symbolMissing, function: "LiteRtCompiledModelGetProfiler",
                    message:
                        "This libLiteRt.so has no profiler; profile with ai-edge-litert \(LiteRTLibrary.pinnedVersion)."
                )
            }
            guard let payload = strdup("enable_profiling = true\n") else {
                throw LiteRTError(code: .callFailed, message: "Out of memory for the profiling option.")
            }
            var opaque: LiteRtOpaqueOptions?
            let status = api.createOpaqueOptions("runtime_options_string", payload, { free($0) }, &opaque)
            if status != 0 { free(payload) }
            try check(status, "LiteRtCreateOpaqueOptions")
            try check(api.addOpaqueOptions(options, opaque), "LiteRtAddOpaqueOptions")
        }
        var compiled: LiteRtCompiledModel?
        try check(
            api.createCompiledModel(model.environment.handle, model.handle, options, &compiled),
            "LiteRtCreateCompiledModel",
            "LiteRT could not compile the model for the CPU (an unsupported op or tensor type?); see stderr.")
        guard let compiled else {
            throw LiteRTError(code: .callFailed, function: "LiteRtCreateCompiledModel", message: "returned no model")
        }
        handle = compiled
        var profiler: LiteRtProfiler?
        if profiling, let functions = api.profiler {
            let status = functions.get(compiled, &profiler)
            if status != 0 || profiler == nil {
                api.destroyCompiledModel(compiled)
                throw LiteRTError(
                    code: .callFailed, function: "LiteRtCompiledModelGetProfiler", status: status,
                    message: "LiteRT compiled the model without its profiler.")
            }
        }
        self.profiler = profiler
        built = true

        var inputs: [TensorDescription] = []
        var outputs: [TensorDescription] = []
        var inputBuffers: [LiteRtTensorBuffer?] = []
        var outputBuffers: [LiteRtTensorBuffer?] = []
        var inputMemory: [UnsafeMutableRawPointer] = []
        var inputSizes: [Int] = []
        var ok = false
        defer {
            if !ok {
                Self.release(
                    api: api, handle: compiled, options: options, ins: inputBuffers, outs: outputBuffers,
                    memory: inputMemory)
            }
        }
        let sigInputs = try model.signatureTensors(inputs: true)
        let sigOutputs = try model.signatureTensors(inputs: false)

        for (i, t) in sigInputs.enumerated() {
            var layout = LiteRtLayout()
            try check(api.getInputTensorLayout(compiled, 0, i, &layout), "LiteRtGetCompiledModelInputTensorLayout")
            var req: LiteRtTensorBufferRequirements?
            try check(
                api.getInputBufferRequirements(compiled, 0, i, &req), "LiteRtGetCompiledModelInputBufferRequirements")
            var size = 0
            try check(api.getRequirementsBufferSize(req, &size), "LiteRtGetTensorBufferRequirementsBufferSize")
            let shape = layout.dims
            let packed = shape.reduce(1, *) * t.elementType.byteSize
            let bytes = max(size, packed, 1)
            let rounded = (bytes + 63) / 64 * 64
            let memory = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: rounded)
            inputMemory.append(memory)
            inputSizes.append(packed)
            var type = LiteRtRankedTensorType()
            type.element_type = t.elementType.rawValue
            type.layout = layout
            var buffer: LiteRtTensorBuffer?
            try check(
                api.createTensorBufferFromHostMemory(&type, memory, rounded, nil, &buffer),
                "LiteRtCreateTensorBufferFromHostMemory")
            inputBuffers.append(buffer)
            inputs.append(
                TensorDescription(
                    name: t.name, tensorName: t.tensorName, elementType: t.elementType, shape: shape,
                    quantization: t.quantization, byteCount: packed))
        }

        var layouts = [LiteRtLayout](repeating: LiteRtLayout(), count: sigOutputs.count)
        if !sigOutputs.isEmpty {
            try check(
                api.getOutputTensorLayouts(compiled, 0, sigOutputs.count, &layouts, true),
                "LiteRtGetCompiledModelOutputTensorLayouts")
            if let error = kernels?.firstError() {
                throw LiteRTError(code: .callFailed, function: "LiteRtCreateCompiledModel", message: error)
            }
        }
        for (i, t) in sigOutputs.enumerated() {
            var req: LiteRtTensorBufferRequirements?
            try check(
                api.getOutputBufferRequirements(compiled, 0, i, &req), "LiteRtGetCompiledModelOutputBufferRequirements")
            var type = LiteRtRankedTensorType()
            type.element_type = t.elementType.rawValue
            type.layout = layouts[i]
            var buffer: LiteRtTensorBuffer?
            try check(
                api.createManagedTensorBufferFromRequirements(model.environment.handle, &type, req, &buffer),
                "LiteRtCreateManagedTensorBufferFromRequirements")
            outputBuffers.append(buffer)
            let shape = layouts[i].dims
            outputs.append(
                TensorDescription(
                    name: t.name, tensorName: t.tensorName, elementType: t.elementType, shape: shape,
                    quantization: t.quantization, byteCount: shape.reduce(1, *) * t.elementType.byteSize))
        }
        self.inputs = inputs
        self.outputs = outputs
        self.inputBuffers = inputBuffers
        self.outputBuffers = outputBuffers
        self.inputMemory = inputMemory
        self.inputSizes = inputSizes
        ok = true
    }

    deinit {
        Self.release(
            api: api, handle: handle, options: options, ins: inputBuffers, outs: outputBuffers, memory: inputMemory)
    }

    private static func release(
        api: FunctionTable, handle: LiteRtCompiledModel, options: LiteRtOptions,
        ins: [LiteRtTensorBuffer?], outs: [LiteRtTensorBuffer?], memory: [UnsafeMutableRawPointer]
    ) {
        for b in ins { if let b { api.destroyTensorBuffer(b) } }
        for b in outs { if let b { api.destroyTensorBuffer(b) } }
        api.destroyCompiledModel(handle)
        api.destroyOptions(options)
        for m in memory { m.deallocate() }
    }

    /// Runs `body` while holding this model's lock, so that writing inputs, running and reading
    /// outputs happen as one step when several threads share the model.
    package func invoke<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Gives `body` the input tensor's memory (exactly ``TensorDescription/byteCount`` bytes) to fill.
    package func withInput<T>(_ index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> T) throws -> T {
        guard inputMemory.indices.contains(index) else {
            throw LiteRTError(
                code: .invalidArgument,
                message: "Input index \(index) is out of range; the model has \(inputMemory.count) inputs.")
        }
        return try invoke {
            try body(UnsafeMutableRawBufferPointer(start: inputMemory[index], count: inputSizes[index]))
        }
    }

    /// Copies `bytes` into input `index`; their count must equal the tensor's byte count.
    package func setInput<Bytes: Collection>(_ index: Int, bytes: Bytes) throws where Bytes.Element == UInt8 {
        try withInput(index) { buffer in
            guard bytes.count == buffer.count else {
                throw LiteRTError(
                    code: .invalidArgument,
                    message: "Input \(index) takes \(buffer.count) bytes, got \(bytes.count).")
            }
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// Runs the model on the current inputs.
    package func run() throws {
        try invoke {
            let status = inputBuffers.withUnsafeMutableBufferPointer { ins in
                outputBuffers.withUnsafeMutableBufferPointer { outs in
                    api.runCompiledModel(handle, 0, ins.count, ins.baseAddress, outs.count, outs.baseAddress)
                }
            }
            try check(status, "LiteRtRunCompiledModel")
            if let error = customKernels?.firstError() {
                throw LiteRTError(code: .callFailed, function: "LiteRtRunCompiledModel", message: error)
            }
        }
    }

    /// Runs the model `runs` times on the current inputs with LiteRT's profiler on, and returns every
    /// op's time in each run (in the order LiteRT ran them). The model must have been compiled with
    /// `profiling`.
    package func profile(runs: Int) throws -> [ProfiledOp] {
        guard let profiler, let functions = api.profiler else {
            throw LiteRTError(
                code: .invalidArgument,
                message: "The model was compiled without profiling (CompiledModel(…, profiling: true)).")
        }
        return try invoke {
            try check(functions.reset(profiler), "LiteRtResetProfiler")
            try check(functions.start(profiler), "LiteRtStartProfiler")
            var failure: Error?
            for _ in 0..<runs where failure == nil {
                do { try run() } catch { failure = error }
            }
            try check(functions.stop(profiler), "LiteRtStopProfiler")
            if let failure { throw failure }
            var count: Int32 = 0
            try check(functions.count(profiler, &count), "LiteRtGetNumProfilerEvents")
            guard count > 0 else { return [] }
            var events = [LiteRtProfiledEventData](repeating: LiteRtProfiledEventData(), count: Int(count))
            try check(
                events.withUnsafeMutableBufferPointer { functions.events(profiler, count, $0.baseAddress) },
                "LiteRtGetProfilerEvents")
            return ProfiledOp.ops(in: events)
        }
    }

    /// Gives `body` output `index`'s bytes (read-only, valid only inside `body`).
    package func withOutput<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard outputBuffers.indices.contains(index), let buffer = outputBuffers[index] else {
            throw LiteRTError(
                code: .invalidArgument,
                message: "Output index \(index) is out of range; the model has \(outputBuffers.count) outputs.")
        }
        return try invoke {
            var address: UnsafeMutableRawPointer?
            try check(api.lockTensorBuffer(buffer, &address, 0), "LiteRtLockTensorBuffer")
            defer { _ = api.unlockTensorBuffer(buffer) }
            guard let address else {
                throw LiteRTError(
                    code: .callFailed, function: "LiteRtLockTensorBuffer", message: "returned no host address")
            }
            return try body(UnsafeRawBufferPointer(start: address, count: outputs[index].byteCount))
        }
    }

    /// A copy of output `index`'s bytes.
    package func outputBytes(_ index: Int) throws -> [UInt8] {
        try withOutput(index) { Array($0) }
    }

    /// Output `index` as floats (float32 outputs only).
    package func outputFloats(_ index: Int) throws -> [Float] {
        guard outputs.indices.contains(index), outputs[index].elementType == .float32 else {
            throw LiteRTError(code: .invalidArgument, message: "Output \(index) is not a float32 tensor.")
        }
        return try withOutput(index) { Array($0.bindMemory(to: Float.self)) }
    }
}
