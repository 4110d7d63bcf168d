import FileInput

/// Semantic checks on a model whose FlatBuffer ``FlatBufferVerifier`` accepted, so that nothing the
/// runtime does with it can crash, corrupt memory or exhaust it: schema version; operator-code,
/// tensor, buffer and subgraph indices; operator inputs (−1 only where the op takes an optional
/// input) and outputs (never a constant, a graph input or a tensor written twice; nothing read
/// before it is written); shapes with overflow-checked sizes under ``ModelLimits``; constant
/// buffers matching their tensors' sizes; quantization and sparsity parameters; signatures;
/// control-flow subgraph targets without recursion; and `TFLite_Detection_PostProcess` options
/// against the tensors the op reads. A failure is ``TFLiteModelError/Code/unsafeModel``.
package enum ModelVerifier {
    /// Checks `file` within `limits`.
    package static func verify(_ file: ModelFile, limits: ModelLimits = .standard) throws {
        guard file.version == 3 else { throw unsafe("schema version \(file.version), expected 3") }
        let root = try FlatBufferReader(data: file.data).root()
        let rawSubgraphs = try root.tables(2)
        for (i, code) in file.operatorCodes.enumerated() {
            guard code.builtinCode >= 0, code.builtinCode <= maxBuiltinOperator else {
                throw unsafe("operator code \(i) has builtin code \(code.builtinCode)")
            }
            if code.builtinCode == OperatorCode.custom, (code.customCode ?? "").isEmpty {
                throw unsafe("custom operator code \(i) has no name")
            }
        }
        for entry in file.metadataEntries where entry.buffer < 0 || entry.buffer >= file.bufferCount {
            throw unsafe("metadata '\(entry.name)' names buffer \(entry.buffer) of \(file.bufferCount)")
        }
        var activationBytes = 0
        var calls: [[Int]] = []
        for (s, subgraph) in file.subgraphs.enumerated() {
            let raw = rawSubgraphs[s]
            for slot in [0, 1, 2, 3] where try !raw.has(slot) {
                throw unsafe("subgraph \(s) lacks its \(["tensors", "inputs", "outputs", "operators"][slot])")
            }
            activationBytes += try tensors(file, subgraph, raw, s, limits)
            guard activationBytes <= limits.maxActivationBytes else {
                throw unsafe("its tensors need more than \(limits.maxActivationBytes >> 20) MiB")
            }
            calls.append(try operators(file, subgraph, raw, s))
        }
        try checkCalls(calls)
        try signatures(root, file)
    }

    /// The highest `BuiltinOperator` value of the schema.
    static let maxBuiltinOperator: Int32 = 209

    static func unsafe(_ what: String) -> TFLiteModelError {
        TFLiteModelError(.unsafeModel, "The model cannot be run safely: \(what).")
    }

    /// Bytes of `count` elements of `type`, nil for types without a fixed size.
    static func byteCount(_ type: TensorType, _ count: Int) -> Int? {
        switch type {
        case .bool, .int8, .uint8: return count
        case .float16, .int16, .uint16, .bfloat16:
            return count.multipliedReportingOverflow(by: 2).overflow ? Int.max : count * 2
        case .float32, .int32, .uint32: return count.multipliedReportingOverflow(by: 4).overflow ? Int.max : count * 4
        case .int64, .uint64, .float64, .complex64:
            return count.multipliedReportingOverflow(by: 8).overflow ? Int.max : count * 8
        case .complex128: return count.multipliedReportingOverflow(by: 16).overflow ? Int.max : count * 16
        case .int4: return count / 2 + count % 2
        case .string, .resource, .variant: return nil
        }
    }

    /// Element count of `shape`, overflow-checked; nil for a negative dimension or an overflow.
    static func elementCount(_ shape: [Int]) -> Int? {
        var n = 1
        for d in shape {
            guard d >= 0 else { return nil }
            let (p, o) = n.multipliedReportingOverflow(by: d)
            guard !o else { return nil }
            n = p
        }
        return n
    }

    /// Checks every tensor of a subgraph; returns the bytes of its non-constant tensors.
    static func tensors(
        _ file: ModelFile, _ subgraph: Subgraph, _ raw: FlatTable, _ s: Int, _ limits: ModelLimits
    ) throws -> Int {
        var activations = 0
        let rawTensors = try raw.tables(0)
        for (t, tensor) in subgraph.tensors.enumerated() {
            let name = "tensor \(t) ('\(tensor.name)') of subgraph \(s)"
            guard tensor.buffer >= 0, tensor.buffer < max(file.bufferCount, 1) else {
                throw unsafe("\(name) names buffer \(tensor.buffer) of \(file.bufferCount)")
            }
            guard tensor.shape.count <= 16, let count = elementCount(tensor.shape) else {
                throw unsafe("\(name) has shape \(tensor.shape)")
            }
            if let signature = tensor.shapeSignature {
                guard signature.count == tensor.shape.count, signature.allSatisfy({ $0 >= -1 }) else {
                    throw unsafe("\(name) has shape signature \(signature)")
                }
            }
            let bytes = byteCount(tensor.type, count) ?? 0
            guard bytes <= limits.maxTensorBytes else {
                throw unsafe("\(name) of shape \(tensor.shape) needs more than \(limits.maxTensorBytes >> 20) MiB")
            }
            let stored = file.bufferCount > 0 ? try file.bufferSize(tensor.buffer) : 0
            let sparsity = try rawTensors[t].table(6)
            if let q = tensor.quantization { try quantization(q, tensor, name) }
            if let rawQ = try rawTensors[t].table(4), tensor.quantization == nil {
                guard try rawQ.integers(3, Int64.self).isEmpty else {
                    throw unsafe("\(name) has zero points without scales")
                }
            }
            if let sparsity {
                guard stored > 0 else { throw unsafe("\(name) is sparse without data") }
                try sparse(sparsity, tensor, stored: stored, name)
            } else if stored > 0, let expected = byteCount(tensor.type, count), stored != expected {
                throw unsafe("\(name) of shape \(tensor.shape) holds \(stored) bytes, expected \(expected)")
            }
            if stored == 0 { activations += bytes }
        }
        return activations
    }

    static func quantization(_ q: Tensor.QuantizationParameters, _ tensor: Tensor, _ name: String) throws {
        guard q.scales.allSatisfy({ $0.isNormal && $0 > 0 }) else {
            throw unsafe("\(name) has a quantization scale that is not a positive normal number")
        }
        if q.scales.isEmpty {
            guard q.zeroPoints.isEmpty else { throw unsafe("\(name) has zero points without scales") }
            return
        }
        guard q.zeroPoints.count == q.scales.count else {
            throw unsafe("\(name) has \(q.scales.count) scales and \(q.zeroPoints.count) zero points")
        }
        if q.scales.count > 1 {
            guard tensor.shape.indices.contains(q.quantizedDimension),
                tensor.shape[q.quantizedDimension] == q.scales.count
            else {
                throw unsafe(
                    "\(name) has \(q.scales.count) scales for dimension \(q.quantizedDimension) of shape "
                        + "\(tensor.shape)"
                )
            }
        }
    }

    /// Checks a sparse tensor's traversal order, block map and CSR segments/indices against its
    /// shape and the bytes it stores.
    static func sparse(_ sparsity: FlatTable, _ tensor: Tensor, stored: Int, _ name: String) throws {
        let order = try sparsity.integers(0, Int32.self).map(Int.init)
        let blockMap = try sparsity.integers(1, Int32.self).map(Int.init)
        let dims = try sparsity.tables(2)
        let n = tensor.shape.count, k = blockMap.count
        guard order.count == n + k, dims.count == n + k,
            Set(order.prefix(n)) == Set(0..<n), Set(order.suffix(k)) == Set(n..<(n + k)),
            blockMap.allSatisfy({ (0..<n).contains($0) }), Set(blockMap).count == k
        else {
            throw unsafe("\(name) has inconsistent sparsity (traversal order \(order), block map \(blockMap))")
        }
        // Dense size of each expanded dimension: original dimensions divided by their block size.
        var size = tensor.shape
        for (b, d) in blockMap.enumerated() {
            let blockSize = Int(try dims[n + b].scalar(1, default: Int32(0)))
            guard blockSize > 0, size[d] % blockSize == 0 else {
                throw unsafe("\(name) has block size \(blockSize) for dimension \(d)")
            }
            size[d] /= blockSize
            size.append(blockSize)
        }
        var count = 1  // elements of the previous level
        for level in 0..<(n + k) {
            let dim = order[level]
            let meta = dims[level]
            let format: Int8 = try meta.scalar(0, default: 0)
            if format == 0 {
                guard Int(try meta.scalar(1, default: Int32(0))) == size[dim] else {
                    throw unsafe("\(name) has a dense size that differs from its shape")
                }
                let (p, o) = count.multipliedReportingOverflow(by: size[dim])
                guard !o else { throw unsafe("\(name) has too many elements") }
                count = p
            } else {
                let segments = try indexVector(meta, typeSlot: 2, name)
                let indices = try indexVector(meta, typeSlot: 4, name)
                guard segments.count == count + 1, segments.first == 0, segments.last == indices.count,
                    zip(segments, segments.dropFirst()).allSatisfy({ $0 <= $1 }),
                    indices.allSatisfy({ (0..<size[dim]).contains($0) })
                else {
                    throw unsafe("\(name) has CSR segments or indices that do not fit its shape")
                }
                count = indices.count
            }
        }
        guard let bytes = byteCount(tensor.type, count), bytes == stored else {
            throw unsafe("\(name) stores \(stored) bytes for \(count) sparse values")
        }
    }

    /// A `SparseIndexVector` union (Int32Vector, Uint16Vector, Uint8Vector) as integers.
    static func indexVector(_ meta: FlatTable, typeSlot: Int, _ name: String) throws -> [Int] {
        let type: UInt8 = try meta.scalar(typeSlot, default: 0)
        guard let table = try meta.table(typeSlot + 1) else { throw unsafe("\(name) lacks a CSR index vector") }
        switch type {
        case 1: return try table.integers(0, Int32.self).map(Int.init)
        case 2: return try table.integers(0, UInt16.self).map(Int.init)
        case 3: return try table.integers(0, UInt8.self).map(Int.init)
        default: throw unsafe("\(name) has a CSR index vector of type \(type)")
        }
    }

    /// Inputs that may be −1 (absent), by builtin operator.
    static let optionalInputs: [Int32: Set<Int>] = [3: [2], 4: [2], 9: [2], 67: [3], 27: [3]]
    /// Recurrent ops, whose many optional inputs may each be −1.
    static let recurrent: Set<Int32> = [16, 24, 35, 44, 46, 52]

    /// Checks the operators of a subgraph; returns the subgraphs it calls.
    static func operators(_ file: ModelFile, _ subgraph: Subgraph, _ raw: FlatTable, _ s: Int) throws -> [Int] {
        let count = subgraph.tensors.count
        func check(_ list: [Int], _ what: String) throws {
            for t in list where t < 0 || t >= count {
                throw unsafe("subgraph \(s)'s \(what) name tensor \(t) of \(count)")
            }
        }
        try check(subgraph.inputs, "inputs")
        try check(subgraph.outputs, "outputs")
        var producer = [Int](repeating: -1, count: count)  // -2: graph input or constant
        for t in subgraph.inputs { producer[t] = -2 }
        for (t, tensor) in subgraph.tensors.enumerated() {
            let constant = file.bufferCount > 0 ? try file.bufferSize(tensor.buffer) > 0 : false
            if tensor.isVariable || constant { producer[t] = -2 }
        }
        for (i, op) in subgraph.operators.enumerated() {
            for t in op.outputs {
                guard t >= 0, t < count else {
                    throw unsafe("operator \(i) of subgraph \(s) writes tensor \(t) of \(count)")
                }
                guard producer[t] == -1 else {
                    let writer =
                        producer[t] == -2 ? "an input, a constant or a variable" : "written by operator \(producer[t])"
                    throw unsafe("operator \(i) of subgraph \(s) writes tensor \(t), which is \(writer)")
                }
                producer[t] = i
            }
        }
        let rawOps = try raw.tables(3)
        var calls: [Int] = []
        for (i, op) in subgraph.operators.enumerated() {
            guard file.operatorCodes.indices.contains(op.opcodeIndex) else {
                throw unsafe(
                    "operator \(i) of subgraph \(s) names operator code \(op.opcodeIndex) of "
                        + "\(file.operatorCodes.count)"
                )
            }
            let code = file.operatorCodes[op.opcodeIndex]
            let isCustom = code.builtinCode == OperatorCode.custom
            for (position, t) in op.inputs.enumerated() {
                if t == -1 {
                    guard
                        isCustom || recurrent.contains(code.builtinCode)
                            || optionalInputs[code.builtinCode]?.contains(position) == true
                    else {
                        throw unsafe("operator \(i) (\(code.shortName)) of subgraph \(s) lacks input \(position)")
                    }
                    continue
                }
                guard t >= 0, t < count else {
                    throw unsafe("operator \(i) (\(code.shortName)) of subgraph \(s) reads tensor \(t) of \(count)")
                }
                guard producer[t] < i else {
                    throw unsafe(
                        "operator \(i) (\(code.shortName)) of subgraph \(s) reads tensor \(t) before operator "
                            + "\(producer[t]) writes it"
                    )
                }
            }
            try check(try rawOps[i].integers(8, Int32.self).map(Int.init), "operator \(i)'s intermediates")
            let largeOffset: UInt64 = try rawOps[i].scalar(9, default: 0),
                largeSize: UInt64 = try rawOps[i].scalar(10, default: 0)
            guard largeOffset <= UInt64(file.data.count), largeSize <= UInt64(file.data.count) - largeOffset else {
                throw unsafe(
                    "operator \(i) of subgraph \(s) has custom options at \(largeOffset)+\(largeSize), past the end "
                        + "of the file"
                )
            }
            if code.builtinCode == 22, op.inputs.count >= 2, op.inputs[1] == -1 {
                throw unsafe("operator \(i) (RESHAPE) of subgraph \(s) lacks its shape input")
            }
            calls += try targets(code.builtinCode, rawOps[i], file.subgraphs.count, "operator \(i) of subgraph \(s)")
            if !isCustom {
                func shape(_ t: Int) -> [Int]? { t >= 0 ? subgraph.tensors[t].shape : nil }
                let options = try rawOps[i].table(4)
                let problem = try OperatorShapes.problem(
                    code.builtinCode, inputs: op.inputs.map(shape), outputs: op.outputs.map(shape)
                ) { slot in
                    guard let options, try options.has(slot) else { return nil }
                    return slot == 0
                        ? Int32(try options.scalar(0, default: Int8(0))) : try options.scalar(slot, default: Int32(0))
                }
                if let problem {
                    throw unsafe("operator \(i) (\(code.shortName)) of subgraph \(s): \(problem)")
                }
                if let slot = OperatorShapes.shapeInputs[code.builtinCode], op.inputs.count > slot,
                    let x = shape(op.inputs[0]),
                    let out = op.outputs.first.flatMap(shape)
                {
                    let t = op.inputs[slot]
                    if code.builtinCode == 22, t >= 0,
                        subgraph.tensors[t].type != .int32 || subgraph.tensors[t].shape != [out.count]
                    {
                        throw unsafe(
                            "operator \(i) (RESHAPE) of subgraph \(s): its shape input \(subgraph.tensors[t].shape) "
                                + "\(subgraph.tensors[t].type) is not an INT32 vector of \(out.count)"
                        )
                    }
                    if let problem = OperatorShapes.constantProblem(
                        code.builtinCode, values: try smallInt32s(file, t < 0 ? nil : subgraph.tensors[t]),
                        x: x, out: out)
                    {
                        throw unsafe("operator \(i) (\(code.shortName)) of subgraph \(s): \(problem)")
                    }
                }
            }
            if isCustom, code.customCode == DetectionPostProcessOptions.opName {
                try detectionPostProcess(op, subgraph, file, "operator \(i) of subgraph \(s)")
            }
        }
        return calls
    }

    /// The values of a constant int32 tensor of at most 64 elements; nil when it is not one.
    static func smallInt32s(_ file: ModelFile, _ tensor: Tensor?) throws -> [Int]? {
        // Sized first: a large constant is not copied just to be turned down.
        guard let tensor, tensor.type == .int32, file.bufferCount > 0,
            (1...256).contains(try file.bufferSize(tensor.buffer)),
            let bytes = try file.buffer(tensor.buffer), bytes.count % 4 == 0
        else { return nil }
        return stride(from: 0, to: bytes.count, by: 4).map { i in
            // Little-endian, a byte at a time (one long |/<< expression is too slow for Swift 6.0's type checker).
            var word: UInt32 = 0
            for k in 0..<4 { word |= UInt32(bytes[i + k]) << UInt32(8 * k) }
            return Int(Int32(bitPattern: word))
        }
    }

    /// Subgraphs a control-flow op runs (CALL, IF, WHILE, CALL_ONCE), checked to exist.
    static func targets(_ code: Int32, _ op: FlatTable, _ subgraphCount: Int, _ name: String) throws -> [Int] {
        let slots: [Int]
        switch code {
        case 31, 129: slots = [0]  // CallOptions.subgraph, CallOnceOptions.init_subgraph_index
        case 118, 119: slots = [0, 1]  // IfOptions then/else, WhileOptions cond/body
        default: return []
        }
        guard let options = try op.table(4) else { throw unsafe("\(name) lacks its subgraph options") }
        return try slots.map { slot in
            let target = Int(try options.scalar(slot, default: Int32(-1)))
            guard target >= 0, target < subgraphCount else {
                throw unsafe("\(name) runs subgraph \(target) of \(subgraphCount)")
            }
            return target
        }
    }

    /// Refuses subgraphs that run themselves, directly or not (the runtime would recurse without end).
    static func checkCalls(_ calls: [[Int]]) throws {
        var state = [Int](repeating: 0, count: calls.count)  // 0 new, 1 on the path, 2 done
        func visit(_ s: Int) throws {
            state[s] = 1
            for t in calls[s] {
                if state[t] == 1 { throw unsafe("subgraph \(t) runs itself through subgraph \(s)") }
                if state[t] == 0 { try visit(t) }
            }
            state[s] = 2
        }
        for s in calls.indices where state[s] == 0 { try visit(s) }
    }

    /// `TFLite_Detection_PostProcess`: its options parsed and range-checked against the box, score
    /// and anchor tensors it reads.
    static func detectionPostProcess(_ op: Operator, _ subgraph: Subgraph, _ file: ModelFile, _ name: String) throws {
        guard let raw = op.customOptions else {
            throw unsafe("\(name) (\(DetectionPostProcessOptions.opName)) has no options")
        }
        let o: DetectionPostProcessOptions
        do { o = try DetectionPostProcessOptions(flexBuffer: raw) } catch let e as TFLiteModelError {
            throw unsafe("\(name): \(e.message)")
        }
        guard op.inputs.count == 3, op.outputs.count == 4, op.inputs.allSatisfy({ $0 >= 0 }) else {
            throw unsafe(
                "\(name) (\(DetectionPostProcessOptions.opName)) has \(op.inputs.count) inputs and "
                    + "\(op.outputs.count) outputs, expected 3 and 4"
            )
        }
        let boxes = subgraph.tensors[op.inputs[0]].shape, scores = subgraph.tensors[op.inputs[1]].shape
        let anchors = subgraph.tensors[op.inputs[2]].shape
        guard boxes.count == 3, boxes[0] == 1, boxes[2] >= 4, scores.count == 3, scores[0] == 1, scores[1] == boxes[1],
            anchors.count == 2, anchors[0] == boxes[1], anchors[1] == 4
        else {
            throw unsafe("\(name) reads boxes \(boxes), scores \(scores) and anchors \(anchors) that do not agree")
        }
        let boxCount = boxes[1], classes = scores[2]
        func finite(_ values: Float...) -> Bool { values.allSatisfy { $0.isFinite } }
        guard o.numClasses >= 1, o.numClasses <= classes, classes - o.numClasses <= 1,
            (1...max(1, boxCount)).contains(o.maxDetections), o.maxDetections <= 100_000,
            (1...o.numClasses).contains(o.maxClassesPerDetection),
            o.detectionsPerClass >= 1, o.detectionsPerClass <= 100_000,
            finite(o.nmsScoreThreshold, o.nmsIouThreshold), o.nmsIouThreshold > 0, o.nmsIouThreshold <= 1,
            finite(o.xScale, o.yScale, o.wScale, o.hScale), o.xScale > 0, o.yScale > 0, o.wScale > 0, o.hScale > 0
        else {
            throw unsafe(
                "\(name) has \(DetectionPostProcessOptions.opName) options out of range for \(boxCount) boxes of "
                    + "\(classes) classes"
            )
        }
    }

    /// Signature tensor maps name tensors of the subgraph they belong to.
    static func signatures(_ root: FlatTable, _ file: ModelFile) throws {
        for (i, signature) in try root.tables(7).enumerated() {
            let s = Int(try signature.scalar(4, default: UInt32(0)))
            guard file.subgraphs.indices.contains(s) else { throw unsafe("signature \(i) names subgraph \(s)") }
            for map in try signature.tables(0) + signature.tables(1) {
                let t = Int(try map.scalar(1, default: UInt32(0)))
                guard file.subgraphs[s].tensors.indices.contains(t) else {
                    throw unsafe("signature \(i) names tensor \(t) of subgraph \(s)")
                }
            }
        }
    }
}
