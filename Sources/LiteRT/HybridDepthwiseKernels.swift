import CHybridDepthwise
import CLiteRT

/// The state of our exact hybrid depthwise kernels for one compiled model: one node per rewritten
/// op (custom codes `VisionTasksHybridDepthwise_0`, `_1` …), registered on the compilation options.
/// LiteRT ignores kernel statuses, so each node records its first error; ``firstError()`` is checked
/// after every run. The nodes outlive the compiled model that uses them.
final class HybridDepthwiseKernels: @unchecked Sendable {
    private let nodes: [OpaquePointer]

    /// Nodes for `count` rewritten ops; nil when the library has no custom op kernels.
    init?(count: Int, threads: Int, api: FunctionTable) throws {
        guard count > 0, let getType = api.getTensorBufferTensorType, api.addCustomOpKernelOption != nil else { return nil }
        var made: [OpaquePointer] = []
        let table = vt_hdw_litert_api(get_tensor_type: unsafeBitCast(getType, to: UnsafeRawPointer.self),
                                      lock: unsafeBitCast(api.lockTensorBuffer, to: UnsafeRawPointer.self),
                                      unlock: unsafeBitCast(api.unlockTensorBuffer, to: UnsafeRawPointer.self))
        for _ in 0..<count {
            guard let node = vt_hdw_node_create(table, Int32(clamping: threads)) else {
                made.forEach { vt_hdw_node_free($0) }
                throw LiteRTError(code: .callFailed, message: "Out of memory for the hybrid depthwise kernels.")
            }
            made.append(node)
        }
        nodes = made
    }

    deinit { nodes.forEach { vt_hdw_node_free($0) } }

    /// Registers every node's kernel on `options`.
    func register(on options: LiteRtOptions, api: FunctionTable, name: (Int) -> String) throws {
        guard let add = api.addCustomOpKernelOption, let raw = vt_hdw_kernel() else { return }
        let kernel = raw.assumingMemoryBound(to: LiteRtCustomOpKernel.self)
        for (k, node) in nodes.enumerated() {
            try check(add(options, name(k), 1, kernel, UnsafeMutableRawPointer(node)), "LiteRtAddCustomOpKernelOption")
        }
    }

    /// The first error a node met, if any.
    func firstError() -> String? {
        var message = [CChar](repeating: 0, count: 200)
        for (k, node) in nodes.enumerated() where vt_hdw_node_error(node, &message, message.count) != 0 {
            return "hybrid depthwise kernel \(k): " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    /// The kernel path this CPU takes ("avx512", "avx2" or "scalar").
    static var path: String { String(cString: vt_hdw_path()) }
}
