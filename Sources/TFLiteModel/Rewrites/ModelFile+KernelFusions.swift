/// Two fusions across the ops `customKernelOps` moves onto VisionTasks' kernels, each leaving every
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
extension ModelFile {
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
            var out: [UInt8] = Array("VTCG".utf8)
            for v in [Int32(1), Int32(members.count), Int32(depth)] {
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
            var out: [UInt8] = Array("VTLK".utf8)
            for v in [Int32(1), role, slot] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
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
