import CKernelFormats

/// The ops VisionTasks' 1×1 convolution kernel takes (see `customKernelOps`), uint8, int8 and hybrid, and
/// the spatial uint8 and int8 convolutions it runs after im2col.
///
/// Uint8: every CONV_2D with a uint8 input and output, a constant uint8 [N, 1, 1, K] filter, a constant int32 (or no)
/// bias quantized at input scale × filter scale, per-tensor quantization, stride 1 and a fused activation among NONE,
/// RELU, RELU_N1_TO_1 and
/// RELU6. Its custom options: "VTQC", version 3, six int32 (input channels K, output channels N,
/// activation, input/filter/output zero points), three float32 scales (input, filter, output), the
/// filter's place in the model and its digest (``filterPlace(_:)``), the int32 bias (little endian), an
/// int32 flag 0.
///
/// Int8 (XNNPACK's QS8 × QC8W): the same with int8 input and output (per tensor), an int8 filter with
/// zero points 0 and a scale per output channel (quantized dimension 0) or one, and a constant int32
/// bias quantized at input scale × each channel's filter scale (XNNPACK refuses per-channel CONV_2D
/// without one, and LiteRT's own kernel then runs it with another requantization); the flag is 1 and
/// the N per-channel scales follow.
///
/// Spatial uint8 and int8: every other such CONV_2D (any kernel size, strides, dilations, SAME or VALID); int8 ones
/// only when asked (``CustomKernels/int8SpatialConv``). Its custom options: "VTQK", version 2, fifteen int32 (K =
/// kh·kw·in, N, activation, the three zero points, kh, kw, input channels, strides h/w, dilations h/w, padding),
/// the three scales, the filter's place and digest, the int32 bias (little endian), then the flag and scales of
/// "VTQC".
///
/// Hybrid: every CONV_2D with a float32 input and output, a constant int8 [N, 1, 1, K] filter with
/// symmetric per-channel (or per-tensor) scales, a constant float32 (or no) bias, stride 1, K + N > 2
/// (what XNNPACK turns into its dynamically quantized fully-connected op) and one of the four fused
/// activations. Its custom options: "VTHC", version 2, three int32 (K, N, activation), the filter's
/// place in the model and digest, the per-channel scales, the bias (little endian).
extension ModelFile {
    /// The custom options for op `op` if it is a uint8 or int8 1×1 convolution our kernel computes
    /// ("VTQC"), or with `spatial` any other uint8 (with `int8`, also int8) convolution XNNPACK takes
    /// ("VTQK": im2col and the same GEMM).
    func quantizedConvOptions(
        _ op: Operator, _ opTable: FlatTable, _ sg: Subgraph, spatial: Bool = false, int8: Bool = true
    ) throws
        -> [UInt8]?
    {
        guard let (input, filter, output) = kernelOperands(op, code: 3, sg),  // CONV_2D
            filter.shape.count == 4, input.shape.count == 4, output.shape.count == 4
        else { return nil }
        // uint8 throughout, or int8 (XNNPACK's QS8 × QC8W: the filter's zero points 0, its scales per
        // output channel or one).
        guard let signed = Self.eightBitSigned(input: input, filter: filter, output: output) else { return nil }
        if signed, op.inputs.count < 3 || op.inputs[2] < 0 { return nil }
        if signed, spatial, !int8 { return nil }
        let n = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2], c = filter.shape[3]
        let k = kh * kw * c
        guard n >= 1, kh >= 1, kw >= 1, c >= 1, k <= 1 << 16, n <= 1 << 16, input.shape[3] == c, output.shape[3] == n,
            let iq = Self.perTensor(input, signed: signed), let oq = Self.perTensor(output, signed: signed),
            let fq = signed
                ? Self.perChannel(filter, count: n) : Self.perTensor(filter).map({ ([$0.scale], $0.zeroPoint) })
        else { return nil }
        guard let weights = try bufferRange(filter.buffer), weights.count == n * k else { return nil }
        guard let bias = try quantizedBias(op, sg, count: n, input: iq.scale, filters: fq.scales) else { return nil }
        guard let window = try Self.convWindow(opTable) else { return nil }
        let channelScales = fq.scales.count == 1 ? [Float](repeating: fq.scales[0], count: n) : fq.scales
        for filterScale in channelScales {
            let scale = iq.scale * filterScale / oq.scale
            guard scale > 0, scale < 256 else { return nil }  // what XNNPACK accepts
        }
        let pointwise = kh == 1 && kw == 1 && window.strides == [1, 1]
        guard pointwise != spatial else { return nil }
        var out: [UInt8] = Array((spatial ? VT_OPTIONS_QK_MAGIC : VT_OPTIONS_QC_MAGIC).utf8)
        func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        let version = Int32(spatial ? VT_OPTIONS_QK_VERSION : VT_OPTIONS_QC_VERSION)
        for v in [version, Int32(k), Int32(n), window.activation, iq.zeroPoint, fq.zeroPoint, oq.zeroPoint] {
            int32(v)
        }
        if spatial {
            for v in [Int32(kh), Int32(kw), Int32(c)] + window.strides + window.dilations + [window.padding] {
                int32(v)
            }
        }
        for v in [iq.scale, fq.scales[0], oq.scale] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        out += filterPlace(weights)
        out += bias
        int32(signed ? 1 : 0)
        if signed {
            for v in channelScales { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        }
        return out
    }

    /// The custom options for op `op` if it is a hybrid 1×1 convolution our kernel computes.
    func hybridConvOptions(_ op: Operator, _ opTable: FlatTable, _ sg: Subgraph) throws -> [UInt8]? {
        guard let (input, filter, output) = kernelOperands(op, code: 3, sg),  // CONV_2D
            input.type == .float32, output.type == .float32, filter.type == .int8, let q = filter.quantization,
            filter.shape.count == 4, filter.shape[1] == 1, filter.shape[2] == 1, input.shape.count == 4,
            output.shape.count == 4
        else { return nil }
        let n = filter.shape[0], k = filter.shape[3]
        guard n >= 1, k >= 1, n <= 1 << 16, k <= 1 << 16, k + n > 2, input.shape[3] == k, output.shape[3] == n,
            q.zeroPoints.allSatisfy({ $0 == 0 }), q.scales.allSatisfy({ $0.isFinite && $0 > 0 }),
            q.scales.count == 1 || (q.scales.count == n && q.quantizedDimension == 0)
        else { return nil }
        let scales = q.scales.count == 1 ? [Float](repeating: q.scales[0], count: n) : q.scales
        guard let weights = try bufferRange(filter.buffer), weights.count == n * k else { return nil }
        guard let bias = try kernelBias(op, sg, type: .float32, count: n) else { return nil }
        guard let activation = try Self.unitStrideActivation(opTable) else { return nil }
        var out: [UInt8] = Array(VT_OPTIONS_HC_MAGIC.utf8)
        for v in [Int32(VT_OPTIONS_HC_VERSION), Int32(k), Int32(n), activation] {
            withUnsafeBytes(of: v.littleEndian) { out += $0 }
        }
        out += filterPlace(weights)
        for v in scales { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        out += bias
        return out
    }

    /// The int32 bias of a uint8 op (zeros when it has none) when it is quantized at input scale ×
    /// filter scale, per tensor with zero point 0: XNNPACK takes uint8 convolutions only with such a
    /// bias (otherwise LiteRT's own kernel runs them, with another requantization).
    func quantizedBias(_ op: Operator, _ sg: Subgraph, count: Int, input: Float, filter: Float) throws -> [UInt8]? {
        try quantizedBias(op, sg, count: count, input: input, filters: [filter])
    }

    /// The same with the filter's scales per channel (`filters.count == count`; one scale: per tensor),
    /// the bias quantized at input scale × each channel's filter scale.
    func quantizedBias(_ op: Operator, _ sg: Subgraph, count: Int, input: Float, filters: [Float]) throws -> [UInt8]? {
        try kernelBias(
            op, sg, type: .int32, count: count,
            accept: { b in
                guard let bq = b.quantization, bq.zeroPoints.allSatisfy({ $0 == 0 }),
                    bq.scales.count == 1 || bq.scales.count == filters.count
                else { return false }
                for (c, fs) in filters.enumerated() {
                    let product = Double(input) * Double(fs), bs = Double(bq.scales[bq.scales.count == 1 ? 0 : c])
                    guard abs(bs - product) <= 1e-6 * product else { return false }
                }
                return true
            })
    }

    /// A filter's place for the custom options: how many bytes before the end of the model its bytes
    /// start, then their ``filterDigest(_:)`` (two uint64, little endian). The rewrite keeps the whole
    /// model at the end of the rewritten bytes, so the distance holds there too, and the filter is not
    /// copied into the options; the kernel checks the digest before using the bytes it finds there.
    func filterPlace(_ range: Range<Int>) -> [UInt8] {
        var out = withUnsafeBytes(of: UInt64(data.count - range.lowerBound).littleEndian) { Array($0) }
        withUnsafeBytes(of: Self.filterDigest(UnsafeRawBufferPointer(rebasing: data[range])).littleEndian) { out += $0 }
        return out
    }

    /// The 1×1 kernel's digest of a filter's bytes (CKernels' `vt_filter_digest`, the same arithmetic):
    /// h = 0x9E3779B97F4A7C15 ^ n; for each 8-byte little-endian word w (the last zero-padded),
    /// h = (h ^ w) · 0xFF51AFD7ED558CCD, h ^= h >> 32.
    package static func filterDigest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i < bytes.count {
            var w: UInt64 = 0
            if bytes.count - i >= 8 {
                w = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            } else {
                for j in 0..<(bytes.count - i) { w |= UInt64(bytes[i + j]) << (8 * UInt64(j)) }
            }
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        return h
    }

    /// A CONV_2D's window: its fused activation (0…3, when one the kernels have), strides and dilations
    /// (h, w; 1…65536) and padding (0 SAME, 1 VALID).
    static func convWindow(
        _ opTable: FlatTable
    ) throws -> (
        activation: Int32, strides: [Int32], dilations: [Int32], padding: Int32
    )? {
        // Conv2DOptions: padding, stride_w, stride_h, fused_activation_function, dilation_w, dilation_h.
        let options = try target(opTable, 4).map { try opTable.reader.table(at: $0) }
        func option<T: FixedWidthInteger>(_ slot: Int, _ fallback: T) throws -> T {
            try options?.scalar(slot, default: fallback) ?? fallback
        }
        let padding = Int32(try option(0, Int8(0)))
        let sw = try option(1, Int32(0)), sh = try option(2, Int32(0)), activation = Int32(try option(3, Int8(0)))
        let dw = try option(4, Int32(1)), dh = try option(5, Int32(1))
        guard [sw, sh, dw, dh].allSatisfy({ (1...65536).contains($0) }), (0...3).contains(activation),
            (0...1).contains(padding)
        else { return nil }
        return (activation, [sh, sw], [dh, dw], padding)
    }

    /// A CONV_2D's fused activation (0…3) when its strides are 1 and its activation one the kernel has.
    static func unitStrideActivation(_ opTable: FlatTable) throws -> Int32? {
        guard let window = try convWindow(opTable), window.strides == [1, 1] else { return nil }
        return window.activation
    }

    /// An int8 filter's scales — one per output channel (quantized dimension 0) or one — when every zero
    /// point is 0 and every scale positive and finite (what XNNPACK's QC8W filters are).
    static func perChannel(_ t: Tensor, count: Int) -> (scales: [Float], zeroPoint: Int32)? {
        guard let q = t.quantization, q.zeroPoints.allSatisfy({ $0 == 0 }), !q.scales.isEmpty,
            q.scales.allSatisfy({ $0.isFinite && $0 > 0 }),
            q.scales.count == 1 || (q.scales.count == count && q.quantizedDimension == 0),
            q.zeroPoints.count == q.scales.count
        else { return nil }
        return (q.scales, 0)
    }

    /// A uint8 (`signed`: int8) tensor's per-tensor scale (positive, finite) and zero point (0…255; −128…127).
    static func perTensor(_ t: Tensor, signed: Bool = false) -> (scale: Float, zeroPoint: Int32)? {
        guard let q = t.quantization, q.scales.count == 1, q.zeroPoints.count == 1, let scale = q.scales.first,
            let zp = q.zeroPoints.first,
            scale.isFinite, scale > 0, signed ? (-128...127).contains(zp) : (0...255).contains(zp)
        else { return nil }
        return (scale, Int32(zp))
    }
}
