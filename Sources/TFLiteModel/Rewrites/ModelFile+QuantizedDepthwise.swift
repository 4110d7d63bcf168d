/// The ops VisionTasks' exact uint8 depthwise kernel takes (see `customKernelOps`): every
/// DEPTHWISE_CONV_2D with uint8 input, filter and output, per-tensor quantization, depth multiplier 1,
/// a constant int32 (or no) bias quantized at input scale × filter scale and a requantization scale
/// below 256 (what XNNPACK's QU8 DWConv takes). Its custom options: "VTQD", version 1, thirteen int32
/// (kernel h/w, channels, strides h/w, dilations h/w, padding 0 SAME / 1 VALID, activation, input/filter/
/// output zero points), three float32 scales (input, filter, output), the filter padded to 4 bytes, the
/// int32 bias (little endian).
extension ModelFile {
    /// The custom options for op `op` if it is a uint8 depthwise convolution our kernel computes.
    func quantizedDepthwiseOptions(_ op: Operator, _ opTable: FlatTable, _ sg: Subgraph) throws -> [UInt8]? {
        guard let (input, filter, output) = kernelOperands(op, code: 4, sg),  // DEPTHWISE_CONV_2D
            input.type == .uint8, output.type == .uint8, filter.type == .uint8, filter.shape.count == 4,
            filter.shape[0] == 1, input.shape.count == 4, output.shape.count == 4,
            let iq = Self.perTensor(input), let fq = Self.perTensor(filter), let oq = Self.perTensor(output)
        else { return nil }
        let kh = filter.shape[1], kw = filter.shape[2], c = filter.shape[3]
        guard kh >= 1, kw >= 1, c >= 1, c <= 1 << 20, kh * kw <= 65536, input.shape[3] == c, output.shape[3] == c,
            let weights = try buffer(filter.buffer), weights.count == kh * kw * c
        else { return nil }
        guard let bias = try quantizedBias(op, sg, count: c, input: iq.scale, filter: fq.scale) else { return nil }
        // A depth multiplier of 0 (older converters) means 1 when the channels agree.
        guard let window = try Self.depthwiseWindow(opTable), window.depthMultiplier <= 1 else { return nil }
        let (padding, activation) = (window.padding, window.activation)
        let (sh, sw, dh, dw) = (window.strides[0], window.strides[1], window.dilations[0], window.dilations[1])
        let scale = iq.scale * fq.scale / oq.scale
        guard scale > 0, scale < 256 else { return nil }  // what XNNPACK accepts
        var out: [UInt8] = Array("VTQD".utf8)
        func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        for v in [1, Int32(kh), Int32(kw), Int32(c), sh, sw, dh, dw, padding, activation] { int32(v) }
        for v in [iq.zeroPoint, fq.zeroPoint, oq.zeroPoint] { int32(v) }
        for v in [iq.scale, fq.scale, oq.scale] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        out += weights
        out += [UInt8](repeating: 0, count: (4 - weights.count % 4) % 4)
        out += bias
        return out
    }
}
