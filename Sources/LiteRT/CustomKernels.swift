import CKernels
import CLiteRT

/// The state of VisionTasks' own kernels (the C module CKernels) for one compiled model: one node per
/// rewritten op, registered on the compilation options under the op's custom code
/// (`VisionTasksHybridDepthwise_<k>`, `VisionTasksQuantizedConv_<k>`, `VisionTasksHybridConv_<k>`; see
/// `ModelFile.customKernelOps`).
/// LiteRT ignores kernel statuses, so each node records its first error; ``firstError()`` is checked
/// after every run. The nodes outlive the compiled model that uses them.
// @unchecked Sendable: the nodes and context are C state that LiteRT's kernels use during a run, and
// runs happen only under the owning ``CompiledModel``'s lock; this object is immutable otherwise.
final class CustomKernels: @unchecked Sendable {
    private let nodes: [(code: String, node: OpaquePointer)]
    private let context: OpaquePointer

    /// Nodes for the rewritten ops `codes` of the model whose bytes are `modelBytes` (where the 1×1
    /// kinds' filters are; nil for a model loaded by path); nil when there is none or the library has
    /// no custom op kernels.
    init?(codes: [String], threads: Int, modelBytes: UnsafeRawBufferPointer?, api: FunctionTable) throws {
        guard !codes.isEmpty, let getType = api.getTensorBufferTensorType, api.addCustomOpKernelOption != nil else {
            return nil
        }
        let base = modelBytes?.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let context = vt_context_create(Int32(clamping: threads), base, modelBytes?.count ?? 0) else {
            throw LiteRTError(code: .callFailed, message: "Out of memory for VisionTasks' kernels.")
        }
        var made: [(String, OpaquePointer)] = []
        let table = vt_litert_api(
            get_tensor_type: unsafeBitCast(getType, to: UnsafeRawPointer.self),
            lock: unsafeBitCast(api.lockTensorBuffer, to: UnsafeRawPointer.self),
            unlock: unsafeBitCast(api.unlockTensorBuffer, to: UnsafeRawPointer.self))
        for code in codes {
            guard let node = vt_node_create(table, context) else {
                made.forEach { vt_node_free($0.1) }
                vt_context_free(context)
                throw LiteRTError(code: .callFailed, message: "Out of memory for VisionTasks' kernels.")
            }
            made.append((code, node))
        }
        nodes = made
        self.context = context
    }

    deinit {
        nodes.forEach { vt_node_free($0.node) }
        vt_context_free(context)
    }

    /// Registers every node's kernel on `options`.
    func register(on options: LiteRtOptions, api: FunctionTable) throws {
        guard let add = api.addCustomOpKernelOption, let raw = vt_kernel() else { return }
        let kernel = raw.assumingMemoryBound(to: LiteRtCustomOpKernel.self)
        for (code, node) in nodes {
            try check(add(options, code, 1, kernel, UnsafeMutableRawPointer(node)), "LiteRtAddCustomOpKernelOption")
        }
    }

    /// The first error a node met, if any.
    func firstError() -> String? {
        var message = [CChar](repeating: 0, count: 200)
        for (code, node) in nodes where vt_node_error(node, &message, message.count) != 0 {
            return "\(code): "
                + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    /// The hybrid depthwise kernel's path on this CPU ("avx512", "avx2" or "scalar").
    static var hybridDepthwisePath: String { String(cString: vt_path_name(vt_hdw_path())) }
    /// The 8-bit depthwise kernel's path on this CPU ("vnni", "avx2", "neon" or "scalar").
    static var quantizedDepthwisePath: String { String(cString: vt_path_name(vt_qdw_path())) }
    /// The 1×1 convolution kernel's path on this CPU ("vnni", "avx2", "neon-dot" or "scalar").
    static var conv1x1Path: String { String(cString: vt_path_name(vt_conv1x1_path())) }
    /// The fused 1×1-into-depthwise op's path on this CPU ("avx512", "avx2" or "scalar").
    static var convDepthwisePath: String { String(cString: vt_path_name(vt_cdw_path())) }
    /// Whether the 1×1 convolution kernel has a vector path on this CPU (AVX2, VNNI or NEON dot product).
    static var conv1x1Preferred: Bool { vt_conv1x1_preferred() != 0 }
    /// Whether the 8-bit depthwise kernel beats XNNPACK's here (x86-64 with AVX2 or VNNI).
    static var quantizedDepthwisePreferred: Bool { vt_qdw_preferred() != 0 }
    /// Whether the 1×1 kernel's hybrid kind equals XNNPACK's here (x86-64 only).
    static var hybridConvExact: Bool { vt_hconv_exact() != 0 }
    /// Whether the fused 1×1-into-float-depthwise op equals XNNPACK's float depthwise kernels here.
    static var convDepthwiseExact: Bool { vt_cdw_exact() != 0 }
    /// Whether CKernels was compiled with optimization.
    static var optimized: Bool { vt_kernels_optimized() != 0 }
}
