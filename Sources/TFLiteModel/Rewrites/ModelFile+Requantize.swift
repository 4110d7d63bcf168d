import CKernelFormats

/// The QUANTIZE ops VisionTasks' requantization kernel takes (see `customKernelOps`): an 8-bit input
/// (uint8 or int8, one scale and zero point) to an 8-bit output with the same scale, bit for bit — TF2
/// post-training quantized models begin with one (uint8 pixels to int8), which LiteRT runs on a
/// per-byte reference loop. Its custom options: "VTRQ", version 1, four int32 (input zero point, input
/// signed 0/1, output zero point, output signed 0/1).
extension ModelFile {
    /// The custom options for op `op` if it is such a QUANTIZE.
    func requantizeOptions(_ op: Operator, _ sg: Subgraph) throws -> [UInt8]? {
        let quantize: Int32 = 114
        guard operatorCodes.indices.contains(op.opcodeIndex), operatorCodes[op.opcodeIndex].builtinCode == quantize,
            op.inputs.count == 1, op.outputs.count == 1, sg.tensors.indices.contains(op.inputs[0]),
            sg.tensors.indices.contains(op.outputs[0])
        else { return nil }
        let input = sg.tensors[op.inputs[0]], output = sg.tensors[op.outputs[0]]
        // An activation, not a constant (a constant's QUANTIZE is the converter's business).
        let constant = input.buffer > 0 ? !(try buffer(input.buffer) ?? []).isEmpty : false
        guard !constant, [TensorType.uint8, .int8].contains(input.type),
            [TensorType.uint8, .int8].contains(output.type),
            let iq = Self.perTensor(input, signed: input.type == .int8),
            let oq = Self.perTensor(output, signed: output.type == .int8),
            // One scale: LiteRT's multiplier is then exactly 1 (other ratios round in fixed point).
            iq.scale.bitPattern == oq.scale.bitPattern
        else { return nil }
        var out: [UInt8] = Array(VT_OPTIONS_RQ_MAGIC.utf8)
        for v in [
            Int32(VT_OPTIONS_RQ_VERSION), iq.zeroPoint, input.type == .int8 ? 1 : 0, oq.zeroPoint,
            output.type == .int8 ? 1 : 0,
        ] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        return out
    }
}
