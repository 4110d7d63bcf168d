import CKernelFormats

/// Three fusions across the ops `customKernelOps` moves onto VisionTasks' kernels, each leaving every
/// value the model computes bit for bit as it was:
///
/// - **Groups** (``ModelFile/CustomKernels/hybridConvGroups``): a CONCATENATION on axis 1 (rank-3
///   float32 output, no activation) all of whose inputs are RESHAPEs to [batch, rows, D] of rewritten
///   hybrid 1×1 convolutions — the box and class heads of SSD models — becomes one custom op
///   (`VisionTasksHybridConvGroup_<k>`) whose inputs are the convolutions' inputs and whose output is
///   the concatenation's: each convolution writes its rows where the concatenation puts them (an NHWC
///   output seen as [pixels · N / D][D] is the reshape's bytes), so the reshapes' and the
///   concatenation's copies go. Its custom options: "VTCG", version 1, the count, D, then per
///   convolution an int32 size and its "VTHC" options, padded to 4 bytes.
/// - **Range links** (``ModelFile/CustomKernels/linkedRanges``): a rewritten hybrid depthwise op whose
///   input is a rewritten hybrid 1×1 convolution's output takes that input's range (the first pass of
///   its quantizer) from the convolution, which takes it while its outputs are in cache. Both ops'
///   options get a prefix: "VTLK", version 1, role (1 the producer, 2 a reader), the slot they share.
/// - **Convolution into float depthwise** (``ModelFile/CustomKernels/hybridConvDepthwise``): a float32
///   DEPTHWISE_CONV_2D (constant float32 filter, depth multiplier 1, at most 64 taps spanning at most
///   64 rows) whose input only it reads and a rewritten hybrid 1×1 convolution makes becomes one op
///   (`VisionTasksHybridConvDepthwise_<k>`, CKernels' `vt_cdw`) whose input is the convolution's: the
///   convolution's rows are made into a ring in cache as the depthwise window reaches them, and the
///   depthwise arithmetic is XNNPACK's (fused multiply-adds in its tap order), so the convolution's
///   output is never written out whole. Its custom options: "VTCD", version 1, nine int32 (kernel h/w,
///   channels, strides h/w, dilations h/w, padding, activation), the filter and bias (float32, little
///   endian), then an int32 size and the convolution's "VTHC" options, padded to 4 bytes.
extension ModelFile {
    /// The depthwise ops that take in the hybrid 1×1 convolution making their input: the depthwise op's
    /// index → its options, its new input (the convolution's) and the convolution it absorbs.
    func hybridConvDepthwisePairs(
        _ sg: Subgraph, opTables: [FlatTable], blobs: [Int: (prefix: String, options: [UInt8])]
    ) throws -> [Int: (options: [UInt8], input: Int, absorbed: Int)] {
        let (producer, consumers) = Self.tensorUse(sg)
        var pairs: [Int: (options: [UInt8], input: Int, absorbed: Int)] = [:]
        for (i, op) in sg.operators.enumerated() where i < opTables.count && blobs[i] == nil {
            guard let (input, filter, output) = kernelOperands(op, code: 4, sg),  // DEPTHWISE_CONV_2D
                input.type == .float32, output.type == .float32, filter.type == .float32, filter.shape.count == 4,
                filter.shape[0] == 1, input.shape.count == 4, output.shape.count == 4,
                consumers[op.inputs[0]] == 1, let p = producer[op.inputs[0]], let conv = blobs[p],
                conv.prefix == CustomKernels.hybridConv.codePrefix, let convInput = sg.operators[p].inputs.first
            else { continue }
            let kh = filter.shape[1], kw = filter.shape[2], c = filter.shape[3]
            guard kh >= 1, kw >= 1, kh * kw <= 64, c >= 1, c <= 1 << 16, input.shape[3] == c,
                output.shape[3] == c, let window = try Self.depthwiseWindow(opTables[i]),
                window.depthMultiplier <= 1, (kh - 1) * Int(window.dilations[0]) + 1 <= 64,
                let weights = try buffer(filter.buffer), weights.count == kh * kw * c * 4,
                let bias = try kernelBias(op, sg, type: .float32, count: c)
            else { continue }
            var out: [UInt8] = Array(VT_OPTIONS_CD_MAGIC.utf8)
            let fields: [Int32] =
                [Int32(VT_OPTIONS_CD_VERSION), Int32(kh), Int32(kw), Int32(c)] + window.strides + window.dilations
                + [window.padding, window.activation]
            for v in fields { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            out += weights + bias
            withUnsafeBytes(of: Int32(conv.options.count).littleEndian) { out += $0 }
            out += conv.options + [UInt8](repeating: 0, count: (4 - conv.options.count % 4) % 4)
            pairs[i] = (out, convInput, p)
        }
        return pairs
    }

    /// The ops a group replaces: the concatenation's index → the group's options, its inputs, and
    /// the convolutions and reshapes it absorbs. `blobs`: the options of the ops already rewritten.
    func hybridConvGroups(
        _ sg: Subgraph, opTables: [FlatTable], blobs: [Int: (prefix: String, options: [UInt8])]
    ) throws -> [Int: (options: [UInt8], inputs: [Int], absorbed: [Int])] {
        let (producer, consumers) = Self.tensorUse(sg)
        let hybridConv = CustomKernels.hybridConv.codePrefix
        func code(_ op: Operator) -> Int32? {
            operatorCodes.indices.contains(op.opcodeIndex) ? operatorCodes[op.opcodeIndex].builtinCode : nil
        }
        var groups: [Int: (options: [UInt8], inputs: [Int], absorbed: [Int])] = [:]
        for (i, op) in sg.operators.enumerated() where code(op) == 2 && i < opTables.count {  // CONCATENATION
            guard op.outputs.count == 1, (1...64).contains(op.inputs.count),
                sg.tensors.indices.contains(op.outputs[0])
            else { continue }
            let output = sg.tensors[op.outputs[0]]
            guard output.type == .float32, output.shape.count == 3, let depth = output.shape.last, depth >= 1 else {
                continue
            }
            // ConcatenationOptions: axis (slot 0), fused_activation_function (slot 1).
            let opTable = opTables[i]
            let options = try Self.target(opTable, 4).map { try opTable.reader.table(at: $0) }
            let axis = try options?.scalar(0, default: Int32(0)) ?? 0
            let activation = try options?.scalar(1, default: Int8(0)) ?? 0
            guard axis == 1 || axis == -2, activation == 0 else { continue }
            var members: [[UInt8]] = [], inputs: [Int] = [], absorbed: [Int] = []
            for t in op.inputs {
                guard consumers[t] == 1, let r = producer[t], code(sg.operators[r]) == 22,  // RESHAPE
                    let reshaped = sg.operators[r].inputs.first, consumers[reshaped] == 1,
                    let c = producer[reshaped], let blob = blobs[c], blob.prefix == hybridConv,
                    sg.tensors.indices.contains(t), sg.tensors.indices.contains(reshaped)
                else { break }
                let view = sg.tensors[t].shape, conv = sg.tensors[reshaped].shape
                guard view.count == 3, view[0] == output.shape[0], view[2] == depth, conv.count == 4,
                    conv[0] == view[0], conv[3] % depth == 0, conv[1] * conv[2] * (conv[3] / depth) == view[1],
                    let input = sg.operators[c].inputs.first
                else { break }
                members.append(blob.options)
                inputs.append(input)
                absorbed += [c, r]
            }
            guard members.count == op.inputs.count else { continue }
            var out: [UInt8] = Array(VT_OPTIONS_CG_MAGIC.utf8)
            for v in [Int32(VT_OPTIONS_CG_VERSION), Int32(members.count), Int32(depth)] {
                withUnsafeBytes(of: v.littleEndian) { out += $0 }
            }
            for m in members {
                withUnsafeBytes(of: Int32(m.count).littleEndian) { out += $0 }
                out += m + [UInt8](repeating: 0, count: (4 - m.count % 4) % 4)
            }
            groups[i] = (out, inputs, absorbed)
        }
        return groups
    }

    /// The range links among rewritten ops: each hybrid 1×1 convolution whose output a rewritten hybrid
    /// depthwise op reads, and those readers, → their "VTLK" prefixes (one slot per convolution).
    func linkedRanges(_ sg: Subgraph, blobs: [Int: (prefix: String, options: [UInt8])]) -> [Int: [UInt8]] {
        var producer: [Int: Int] = [:]
        for (i, op) in sg.operators.enumerated() where blobs[i]?.prefix == CustomKernels.hybridConv.codePrefix {
            if let t = op.outputs.first { producer[t] = i }
        }
        var slots: [Int: Int32] = [:]
        var prefixes: [Int: [UInt8]] = [:]
        func link(_ role: Int32, _ slot: Int32) -> [UInt8] {
            var out: [UInt8] = Array(VT_OPTIONS_LK_MAGIC.utf8)
            for v in [Int32(VT_OPTIONS_LK_VERSION), role, slot] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            return out
        }
        for (i, op) in sg.operators.enumerated() where blobs[i]?.prefix == CustomKernels.hybridDepthwise.codePrefix {
            guard let t = op.inputs.first, let p = producer[t] else { continue }
            let slot = slots[p] ?? Int32(slots.count)
            slots[p] = slot
            prefixes[p] = link(1, slot)
            prefixes[i] = link(2, slot)
        }
        return prefixes
    }

    /// Each tensor's producing op, and how many ops (and subgraph outputs) read it.
    static func tensorUse(_ sg: Subgraph) -> (producer: [Int: Int], consumers: [Int: Int]) {
        var producer: [Int: Int] = [:]
        var consumers: [Int: Int] = [:]
        for (i, op) in sg.operators.enumerated() {
            for t in op.outputs { producer[t] = i }
            for t in Set(op.inputs) where t >= 0 { consumers[t, default: 0] += 1 }
        }
        for t in sg.outputs { consumers[t, default: 0] += 1 }
        return (producer, consumers)
    }
}
