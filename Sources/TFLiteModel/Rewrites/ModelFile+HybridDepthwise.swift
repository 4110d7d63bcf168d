import CKernelFormats

/// The ops VisionTasks' exact hybrid depthwise kernel takes (see `customKernelOps`): every
/// DEPTHWISE_CONV_2D with a float32 input, an int8 per-channel symmetric constant filter and a float32
/// constant (or no) bias. Its custom options: "VTHD", version 1, ten int32 parameters (kernel h/w,
/// input channels, depth multiplier, strides h/w, dilations h/w, padding 0 SAME / 1 VALID, activation
/// 0 NONE / 1 RELU / 2 RELU_N1_TO_1 / 3 RELU6), the filter padded to 4 bytes, the per-channel scales
/// and the bias (little endian).
extension ModelFile {
    /// The custom options for op `op` if it is a hybrid depthwise convolution our kernel computes.
    func hybridDepthwiseOptions(_ op: Operator, _ opTable: FlatTable, _ sg: Subgraph) throws -> [UInt8]? {
        guard let (input, filter, output) = kernelOperands(op, code: 4, sg),  // DEPTHWISE_CONV_2D
            input.type == .float32, output.type == .float32, filter.type == .int8,
            let q = filter.quantization, filter.shape.count == 4, filter.shape[0] == 1, input.shape.count == 4
        else { return nil }
        let kh = filter.shape[1], kw = filter.shape[2], oc = filter.shape[3], c = input.shape[3]
        guard kh >= 1, kw >= 1, oc >= 1, c >= 1, q.scales.count == oc, q.zeroPoints.allSatisfy({ $0 == 0 }),
            q.quantizedDimension == 3,
            q.scales.allSatisfy({ $0.isFinite && $0 > 0 })
        else { return nil }
        guard let weights = try buffer(filter.buffer), weights.count == kh * kw * oc else { return nil }
        guard let bias = try kernelBias(op, sg, type: .float32, count: oc) else { return nil }
        guard let window = try Self.depthwiseWindow(opTable), window.depthMultiplier >= 1,
            Int(window.depthMultiplier) * c == oc
        else { return nil }
        let (padding, activation, dm) = (window.padding, window.activation, window.depthMultiplier)
        let (sh, sw, dh, dw) = (window.strides[0], window.strides[1], window.dilations[0], window.dilations[1])
        var out: [UInt8] = Array(VT_OPTIONS_HD_MAGIC.utf8)
        func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        for v in [
            Int32(VT_OPTIONS_HD_VERSION), Int32(kh), Int32(kw), Int32(c), dm, sh, sw, dh, dw, padding, activation,
        ] {
            int32(v)
        }
        out += weights
        out += [UInt8](repeating: 0, count: (4 - weights.count % 4) % 4)
        for v in q.scales { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        out += bias
        return out
    }

    /// A DEPTHWISE_CONV_2D's window: padding (0 SAME, 1 VALID), fused activation (0…3), depth multiplier
    /// (as stored: older converters write 0), strides and dilations (h, w; 1…65536); nil when out of range.
    static func depthwiseWindow(
        _ opTable: FlatTable
    ) throws -> (
        padding: Int32, activation: Int32, depthMultiplier: Int32, strides: [Int32], dilations: [Int32]
    )? {
        // DepthwiseConv2DOptions: padding, stride_w, stride_h, depth_multiplier, activation, dilation_w, dilation_h.
        let options = try target(opTable, 4).map { try opTable.reader.table(at: $0) }
        func option<T: FixedWidthInteger>(_ slot: Int, _ fallback: T) throws -> T {
            try options?.scalar(slot, default: fallback) ?? fallback
        }
        let padding = Int32(try option(0, Int8(0))), sw = try option(1, Int32(0)), sh = try option(2, Int32(0))
        let dm = try option(3, Int32(0)), activation = Int32(try option(4, Int8(0)))
        let dw = try option(5, Int32(1)), dh = try option(6, Int32(1))
        guard (0...1).contains(padding), (0...3).contains(activation), dm >= 0,
            [sw, sh, dw, dh].allSatisfy({ (1...65536).contains($0) })
        else { return nil }
        return (padding, activation, dm, [sh, sw], [dh, dw])
    }
}
