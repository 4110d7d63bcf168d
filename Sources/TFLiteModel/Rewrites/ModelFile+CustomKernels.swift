import FileInput

/// The rewrite behind VisionTasks' own exact kernels (the C module CKernels, run by LiteRT as custom
/// op kernels): the ops they compute become custom ops, one custom code per node.
extension ModelFile {
    /// The kernels a rewrite can move ops onto.
    package struct CustomKernels: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Hybrid DEPTHWISE_CONV_2D (float input, int8 per-channel filter): custom codes
        /// `VisionTasksHybridDepthwise_<k>`.
        package static let hybridDepthwise = CustomKernels(rawValue: 1)
        /// Uint8 1×1 CONV_2D (per-tensor asymmetric): custom codes `VisionTasksQuantizedConv_<k>`.
        package static let quantizedConv = CustomKernels(rawValue: 2)
        /// Hybrid 1×1 CONV_2D (float input, int8 per-channel filter): custom codes `VisionTasksHybridConv_<k>`.
        package static let hybridConv = CustomKernels(rawValue: 4)
        /// Uint8 CONV_2D of other kernel sizes or strides (per-tensor asymmetric; im2col, then the 1×1
        /// kernel's GEMM): custom codes `VisionTasksQuantizedSpatialConv_<k>`.
        package static let quantizedSpatialConv = CustomKernels(rawValue: 8)
        /// Uint8 DEPTHWISE_CONV_2D (per-tensor asymmetric, depth multiplier 1), and int8 with per-channel
        /// filter scales: custom codes
        /// `VisionTasksQuantizedDepthwise_<k>`.
        package static let quantizedDepthwise = CustomKernels(rawValue: 16)
        /// TFLite_Detection_PostProcess (fast NMS, one class per detection): custom codes
        /// `VisionTasksDetectionPostProcess_<k>`.
        package static let detectionPostProcess = CustomKernels(rawValue: 32)
        /// With ``hybridConv``: a concatenation of reshaped hybrid 1×1 convolutions (SSD heads) becomes one
        /// op that writes each convolution's rows in place (ModelFile+KernelFusions.swift): custom codes
        /// `VisionTasksHybridConvGroup_<k>`.
        package static let hybridConvGroups = CustomKernels(rawValue: 64)
        /// With ``hybridConv`` and ``hybridDepthwise``: a hybrid depthwise op takes its input's range from
        /// the hybrid 1×1 convolution that makes it (ModelFile+KernelFusions.swift).
        package static let linkedRanges = CustomKernels(rawValue: 128)
        /// With ``hybridConv``: a float32 DEPTHWISE_CONV_2D whose input only it reads and a hybrid 1×1
        /// convolution makes becomes one op with it, the convolution's rows made in cache as the window
        /// reaches them (ModelFile+KernelFusions.swift): custom codes `VisionTasksHybridConvDepthwise_<k>`.
        package static let hybridConvDepthwise = CustomKernels(rawValue: 256)
        /// With ``quantizedSpatialConv``: int8 ones (per-channel filter scales) too, which are otherwise
        /// left to XNNPACK.
        package static let int8SpatialConv = CustomKernels(rawValue: 512)
        /// QUANTIZE between 8-bit types at one scale (uint8 pixels to int8): custom codes
        /// `VisionTasksRequantize_<k>`.
        package static let requantize = CustomKernels(rawValue: 1024)

        /// The custom-code prefix of a single kind's rewritten ops (`<prefix>_<k>`).
        package var codePrefix: String {
            switch self {
            case .hybridDepthwise: return "VisionTasksHybridDepthwise"
            case .quantizedConv: return "VisionTasksQuantizedConv"
            case .quantizedSpatialConv: return "VisionTasksQuantizedSpatialConv"
            case .quantizedDepthwise: return "VisionTasksQuantizedDepthwise"
            case .detectionPostProcess: return "VisionTasksDetectionPostProcess"
            case .hybridConvGroups: return "VisionTasksHybridConvGroup"
            case .hybridConvDepthwise: return "VisionTasksHybridConvDepthwise"
            case .requantize: return "VisionTasksRequantize"
            default: return "VisionTasksHybridConv"
            }
        }

        /// How many of `codes` are ops of single kind `self`.
        package func count(in codes: [String]) -> Int { codes.filter { $0.hasPrefix(codePrefix + "_") }.count }
    }

    /// The input, filter and output tensors of `op` when it is builtin op `code` with at least two
    /// inputs, one output and a constant filter, all in range.
    func kernelOperands(_ op: Operator, code: Int32, _ sg: Subgraph) -> (input: Tensor, filter: Tensor, output: Tensor)?
    {
        guard operatorCodes.indices.contains(op.opcodeIndex), operatorCodes[op.opcodeIndex].builtinCode == code,
            op.inputs.count >= 2, op.outputs.count == 1, sg.tensors.indices.contains(op.inputs[0]),
            sg.tensors.indices.contains(op.inputs[1]),
            sg.tensors.indices.contains(op.outputs[0]), sg.tensors[op.inputs[1]].buffer > 0
        else { return nil }
        return (sg.tensors[op.inputs[0]], sg.tensors[op.inputs[1]], sg.tensors[op.outputs[0]])
    }

    /// Whether a convolution's input, filter and output are all int8 (true) or all uint8 (false); nil for
    /// any other mix (the 8-bit kernels take only these two).
    static func eightBitSigned(input: Tensor, filter: Tensor, output: Tensor) -> Bool? {
        let types = [input.type, filter.type, output.type]
        if types.allSatisfy({ $0 == .int8 }) { return true }
        if types.allSatisfy({ $0 == .uint8 }) { return false }
        return nil
    }

    /// The bytes of `op`'s constant bias (input 2) of `type` with `count` 4-byte values for which
    /// `accept` holds; zeros when the op has none; nil when it is not such a constant.
    func kernelBias(
        _ op: Operator, _ sg: Subgraph, type: TensorType, count: Int, accept: (Tensor) -> Bool = { _ in true }
    ) throws -> [UInt8]? {
        guard op.inputs.count >= 3, op.inputs[2] >= 0 else { return [UInt8](repeating: 0, count: count * 4) }
        guard sg.tensors.indices.contains(op.inputs[2]) else { return nil }
        let b = sg.tensors[op.inputs[2]]
        guard b.type == type, b.buffer > 0, accept(b), let raw = try buffer(b.buffer), raw.count == count * 4 else {
            return nil
        }
        return raw
    }

    /// The model with each op one of `kernels` computes turned into a CUSTOM op of its own (opcode
    /// version 1) whose only input is the activation (the detection post-processing's: its box encodings
    /// and scores) and whose custom options carry everything else,
    /// and the rewritten ops' custom codes in order (`k` of `…_<k>` counts all rewritten ops); nil
    /// when no op qualifies. Other ops, tensors, buffers, metadata and the appended zip are kept: the
    /// rewritten model is the returned `head` (a multiple of 64 bytes) followed by all of ``data``
    /// (``rewritten(head:)`` joins them).
    package func customKernelOps(_ kernels: CustomKernels) throws -> (head: [UInt8], codes: [String])? {
        guard let sg = subgraphs.first else { return nil }
        let (_, _, root) = try spliceable()
        let oldSubgraphs = try Self.elementPositions(root, 2)
        guard let firstSubgraph = oldSubgraphs.first else { return nil }
        let sgTable = try root.reader.table(at: firstSubgraph)
        let oldOperators = try Self.elementPositions(sgTable, 3)
        let oldCodes = try Self.elementPositions(root, 1)
        var blobs: [Int: (prefix: String, options: [UInt8])] = [:]
        var inputs: [Int: [Int]] = [:]
        let opTables = try oldOperators.prefix(sg.operators.count).map { try sgTable.reader.table(at: $0) }
        for (i, op) in sg.operators.enumerated() where i < opTables.count {
            let opTable = opTables[i]
            if kernels.contains(.detectionPostProcess), let made = try detectionPostProcessOptions(op, sg) {
                blobs[i] = (CustomKernels.detectionPostProcess.codePrefix, made.options)
                inputs[i] = made.inputs
            } else if kernels.contains(.hybridDepthwise), let blob = try hybridDepthwiseOptions(op, opTable, sg) {
                blobs[i] = (CustomKernels.hybridDepthwise.codePrefix, blob)
            } else if kernels.contains(.requantize), let blob = try requantizeOptions(op, sg) {
                blobs[i] = (CustomKernels.requantize.codePrefix, blob)
            } else if kernels.contains(.quantizedDepthwise), let blob = try quantizedDepthwiseOptions(op, opTable, sg) {
                blobs[i] = (CustomKernels.quantizedDepthwise.codePrefix, blob)
            } else if kernels.contains(.quantizedConv), let blob = try quantizedConvOptions(op, opTable, sg) {
                blobs[i] = (CustomKernels.quantizedConv.codePrefix, blob)
            } else if kernels.contains(.hybridConv), let blob = try hybridConvOptions(op, opTable, sg) {
                blobs[i] = (CustomKernels.hybridConv.codePrefix, blob)
            } else if kernels.contains(.quantizedSpatialConv),
                let blob = try quantizedConvOptions(
                    op, opTable, sg, spatial: true, int8: kernels.contains(.int8SpatialConv))
            {
                blobs[i] = (CustomKernels.quantizedSpatialConv.codePrefix, blob)
            }
        }
        var absorbed = Set<Int>()
        if kernels.contains(.hybridConvGroups) {
            for (i, group) in try hybridConvGroups(sg, opTables: opTables, blobs: blobs) {
                blobs[i] = (CustomKernels.hybridConvGroups.codePrefix, group.options)
                inputs[i] = group.inputs
                for a in group.absorbed {
                    blobs[a] = nil
                    absorbed.insert(a)
                }
            }
        }
        if kernels.contains(.hybridConvDepthwise) {
            for (i, pair) in try hybridConvDepthwisePairs(sg, opTables: opTables, blobs: blobs) {
                blobs[i] = (CustomKernels.hybridConvDepthwise.codePrefix, pair.options)
                inputs[i] = [pair.input]
                blobs[pair.absorbed] = nil
                absorbed.insert(pair.absorbed)
            }
        }
        if kernels.contains(.linkedRanges) {
            for (i, prefix) in linkedRanges(sg, blobs: blobs) {
                if let blob = blobs[i] { blobs[i] = (blob.prefix, prefix + blob.options) }
            }
        }
        guard !blobs.isEmpty else { return nil }

        var names: [String] = []
        let head = try Self.spliceHead(root) { shift in
            var s = FlatBufferSplicer()
            let model = s.add(.table([]))
            let subgraphsList = s.add(.refs([]))
            let subgraph = s.add(.table([]))
            let operatorsList = s.add(.refs([]))
            let codesList = s.add(.refs([]))
            var operatorRefs: [FlatBufferSplicer.Ref] = []
            var newCodes: [FlatBufferSplicer.Ref] = []
            names = []
            for (i, op) in sg.operators.enumerated() where !absorbed.contains(i) {
                guard let blob = blobs[i] else { operatorRefs.append(.old(oldOperators[i])); continue }
                // Parents before children: placeholders first, filled once their children exist.
                let k = newCodes.count
                let code = s.add(.table([]))
                names.append("\(blob.prefix)_\(k)")
                let name = s.add(.string(names[k]))
                s.replace(
                    code,
                    with: .table([
                        (0, .i8(Int8(OperatorCode.custom))), (1, .ref(.new(name))), (2, .i32(1)),
                        (3, .i32(OperatorCode.custom)),
                    ]))
                newCodes.append(.new(code))
                let opTable = try sgTable.reader.table(at: oldOperators[i])
                let conv = s.add(.table([]))
                let opInputs = s.add(.int32s((inputs[i] ?? [op.inputs[0]]).map { Int32($0) }))
                let options = s.add(.bytes(blob.options))
                var fields: [(slot: Int, field: FlatBufferSplicer.Field)] = [
                    (0, .u32(UInt32(operatorCodes.count + k))), (1, .ref(.new(opInputs))),
                ]
                if let outs = try Self.target(opTable, 2) { fields.append((2, .ref(.old(outs)))) }
                fields.append((5, .ref(.new(options))))
                s.replace(conv, with: .table(fields))
                operatorRefs.append(.new(conv))
            }
            var sgFields: [(slot: Int, field: FlatBufferSplicer.Field)] = []
            for slot in [0, 1, 2] {
                if let t = try Self.target(sgTable, slot) { sgFields.append((slot, .ref(.old(t)))) }
            }
            sgFields.append((3, .ref(.new(operatorsList))))
            if let t = try Self.target(sgTable, 4) { sgFields.append((4, .ref(.old(t)))) }
            s.replace(subgraph, with: .table(sgFields))
            s.replace(operatorsList, with: .refs(operatorRefs))
            s.replace(subgraphsList, with: .refs([.new(subgraph)] + oldSubgraphs.dropFirst().map { .old($0) }))
            s.replace(codesList, with: .refs(oldCodes.map { .old($0) } + newCodes))
            let fields = try Self.splicedModelFields(
                root, replacing: [1: .ref(.new(codesList)), 2: .ref(.new(subgraphsList))], &s, shift: shift)
            s.replace(model, with: .table(fields))
            return (s, model)
        }
        return (head, names)
    }

    /// A rewrite's `head` followed by this model's bytes: when the model is a file's mapping, the
    /// file is mapped again behind the head (its pages shared, not copied).
    package func rewritten(head: [UInt8]) -> FileBytes {
        FileBytes(head: head, followedBy: data)
    }

}
