import CKernelFormats

/// The ops VisionTasks' exact uint8/int8 depthwise kernel takes (see `customKernelOps`): every
/// DEPTHWISE_CONV_2D with depth multiplier 1, a requantization scale below 256 and either
/// - uint8 input, filter and output, per-tensor quantization, a constant int32 (or no) bias quantized at
///   input scale × filter scale (what XNNPACK's QU8 DWConv takes). Custom options "VTQD", version 1:
///   thirteen int32 (kernel h/w, channels, strides h/w, dilations h/w, padding 0 SAME / 1 VALID,
///   activation, input/filter/output zero points), three float32 scales (input, filter, output), the
///   filter padded to 4 bytes, the int32 bias (little endian);
/// - int8 input and output (per tensor), an int8 filter with zero points 0 and scales per channel (or one
///   for all), a constant int32 bias quantized per channel at input scale × that channel's filter scale
///   (XNNPACK's QC8/QS8 DWConv). Version 2: the same thirteen int32, the scales (input, 0, output), the
///   channels' filter scales, the filter padded to 4 bytes, the bias.
extension ModelFile {
    /// The custom options for op `op` if it is a uint8 depthwise convolution our kernel computes.
    func quantizedDepthwiseOptions(_ op: Operator, _ opTable: FlatTable, _ sg: Subgraph) throws -> [UInt8]? {
        guard let (input, filter, output) = kernelOperands(op, code: 4, sg),  // DEPTHWISE_CONV_2D
            filter.shape.count == 4, filter.shape[0] == 1, input.shape.count == 4, output.shape.count == 4
        else { return nil }
        guard let signed = Self.eightBitSigned(input: input, filter: filter, output: output),
            let iq = Self.perTensor(input, signed: signed), let oq = Self.perTensor(output, signed: signed)
        else { return nil }
        let kh = filter.shape[1], kw = filter.shape[2], c = filter.shape[3]
        guard kh >= 1, kw >= 1, c >= 1, c <= 1 << 20, kh * kw <= 65536, input.shape[3] == c, output.shape[3] == c,
            let weights = try buffer(filter.buffer), weights.count == kh * kw * c
        else { return nil }
        // The filter's scales: one (uint8, or int8 per tensor), or one per channel (int8, dimension 3).
        let filterScales: [Float], filterZeroPoint: Int32
        if signed {
            guard let q = filter.quantization, q.zeroPoints.allSatisfy({ $0 == 0 }),
                q.scales.count == 1 || (q.scales.count == c && q.quantizedDimension == 3),
                q.scales.allSatisfy({ $0.isFinite && $0 > 0 })
            else { return nil }
            filterScales = q.scales.count == 1 ? [Float](repeating: q.scales[0], count: c) : q.scales
            filterZeroPoint = 0
        } else {
            guard let fq = Self.perTensor(filter) else { return nil }
            filterScales = [fq.scale]
            filterZeroPoint = fq.zeroPoint
        }
        guard let bias = try quantizedBias(op, sg, count: c, input: iq.scale, filters: filterScales) else { return nil }
        // A depth multiplier of 0 (older converters) means 1 when the channels agree.
        guard let window = try Self.depthwiseWindow(opTable), window.depthMultiplier <= 1 else { return nil }
        let (padding, activation) = (window.padding, window.activation)
        let (sh, sw, dh, dw) = (window.strides[0], window.strides[1], window.dilations[0], window.dilations[1])
        for fs in filterScales {
            let scale = iq.scale * fs / oq.scale
            guard scale > 0, scale < 256 else { return nil }  // what XNNPACK accepts
        }
        var out: [UInt8] = Array(VT_OPTIONS_QD_MAGIC.utf8)
        func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func float(_ v: Float) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        for v in [
            Int32(signed ? VT_OPTIONS_QD_SIGNED : VT_OPTIONS_QD_UNSIGNED), Int32(kh), Int32(kw), Int32(c), sh, sw, dh,
            dw, padding, activation,
        ] { int32(v) }
        for v in [iq.zeroPoint, filterZeroPoint, oq.zeroPoint] { int32(v) }
        for v in [iq.scale, signed ? 0 : filterScales[0], oq.scale] { float(v) }
        if signed { filterScales.forEach(float) }
        out += weights
        out += [UInt8](repeating: 0, count: (4 - weights.count % 4) % 4)
        out += bias
        return out
    }
}
