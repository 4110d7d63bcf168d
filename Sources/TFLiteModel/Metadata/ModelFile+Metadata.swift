import FileInput

extension ModelFile {
    /// Where the model's own flatbuffer ends: the start of the appended zip, or the file's end.
    public func flatBufferEnd() throws -> Int {
        guard let archive = try associatedFiles(), let first = archive.entries.map(\.localHeaderOffset).min() else { return data.count }
        return first
    }

    /// The model's flatbuffer (without any appended zip), its root table, and a check that it can
    /// be spliced (no buffers at absolute file offsets).
    func spliceable() throws -> (old: Slice<UnsafeRawBufferPointer>, reader: FlatBufferReader, root: FlatTable) {
        let end = try flatBufferEnd()
        guard end >= 0, end <= data.count else { throw TFLiteModelError(.truncated, "The model's flatbuffer ends at \(end), past its \(data.count) bytes.") }
        let old = data[0..<end]
        let reader = try FlatBufferReader(data: data, count: end)
        let root = try reader.root()
        if let buffers = try root.vector(4, elementSize: 4) {
            for i in 0..<buffers.count where try buffers.table(i).scalar(1, default: UInt64(0)) > 1 {
                throw TFLiteModelError(
                    .invalidBuilderInput, "This model keeps buffers at absolute file offsets (a >2 GB model); rewriting it is not supported.")
            }
        }
        return (old, reader, root)
    }

    /// Positions (in the old buffer) of the objects a vector-of-tables field refers to.
    static func elementPositions(_ table: FlatTable, _ slot: Int) throws -> [Int] {
        guard let v = try table.vector(slot, elementSize: 4) else { return [] }
        return try (0..<v.count).map { try v.reader.indirect(v.start + $0 * 4) }
    }

    /// Position of the object a reference field points to, if present.
    static func target(_ table: FlatTable, _ slot: Int) throws -> Int? {
        guard let p = try table.fieldPosition(slot) else { return nil }
        return try table.reader.indirect(p)
    }

    /// A `Model` table for the splicer: the old root's fields, with some replaced.
    static func modelFields(_ root: FlatTable, replacing: [Int: FlatBufferSplicer.Field]) throws -> [(slot: Int, field: FlatBufferSplicer.Field)] {
        var fields: [(slot: Int, field: FlatBufferSplicer.Field)] = [(0, .u32(try root.scalar(0, default: UInt32(3))))]
        for slot in 1...7 {
            if let f = replacing[slot] { fields.append((slot, f)) } else if let t = try target(root, slot) { fields.append((slot, .ref(.old(t)))) }
        }
        return fields
    }

    /// The model with `metadata` as its `TFLITE_METADATA` (replacing any) and `files` as its
    /// appended zip (replacing any), everything else byte for byte as it was: a small new head
    /// (a root table, the buffer and metadata lists with one more entry) in front of the
    /// unchanged flatbuffer. Models whose buffers use absolute file offsets (>2 GB) are refused.
    public func replacingMetadata(_ metadata: ModelMetadata, files: [(name: String, contents: [UInt8])], deflate: Bool = false) throws -> [UInt8] {
        let (old, reader, root) = try spliceable()
        let oldBuffers = try Self.elementPositions(root, 4)
        let keptMetadata = try Self.elementPositions(root, 6).filter { try reader.table(at: $0).string(0) != ModelMetadata.entryName }
        var s = FlatBufferSplicer()
        // Ids are assigned in order: model(0), buffers(1), metadata list(2), entry(3), name(4), buffer(5), data(6).
        let model = s.add(.table(try Self.modelFields(root, replacing: [4: .ref(.new(1)), 6: .ref(.new(2))])))
        _ = s.add(.refs(oldBuffers.map { .old($0) } + [.new(5)]))
        _ = s.add(.refs(keptMetadata.map { .old($0) } + [.new(3)]))
        _ = s.add(.table([(0, .ref(.new(4))), (1, .u32(UInt32(oldBuffers.count)))]))
        _ = s.add(.string(ModelMetadata.entryName))
        _ = s.add(.table([(0, .ref(.new(6)))]))
        _ = s.add(.bytes(metadata.flatBuffer()))
        var out = s.build(root: model, old: old, fileIdentifier: ModelFile.fileIdentifier)
        if !files.isEmpty { out += try ZipArchive.write(files, deflate: deflate) }
        return out
    }

    /// For "hybrid" models (float activations, int8 weights): the same model in which every
    /// DEPTHWISE_CONV_2D with an int8 constant filter reads that filter through a DEQUANTIZE op
    /// instead. XNNPACK does not run hybrid depthwise convolutions (LiteRT falls back to a slow
    /// built-in kernel) but folds DEQUANTIZE of constant weights at compile time and runs the
    /// convolution in float. The int8 weights stay stored as they are; metadata and the appended
    /// zip are kept. Returns nil when the model has no such op.
    public func dequantizingHybridDepthwiseFilters() throws -> [UInt8]? {
        guard let sg = subgraphs.first else { return nil }
        let depthwise: Int32 = 4, dequantize: Int32 = 6
        let targets = sg.operators.indices.filter { i in
            let op = sg.operators[i]
            guard operatorCodes.indices.contains(op.opcodeIndex), operatorCodes[op.opcodeIndex].builtinCode == depthwise,
                op.inputs.count >= 2, sg.tensors.indices.contains(op.inputs[0]), sg.tensors.indices.contains(op.inputs[1])
            else { return false }
            let input = sg.tensors[op.inputs[0]], filter = sg.tensors[op.inputs[1]]
            return input.type == .float32 && filter.type == .int8 && filter.buffer > 0 && filter.quantization != nil
        }
        guard !targets.isEmpty else { return nil }
        let (old, _, root) = try spliceable()
        let oldSubgraphs = try Self.elementPositions(root, 2)
        let sgTable = try root.reader.table(at: oldSubgraphs[0])
        let oldTensors = try Self.elementPositions(sgTable, 0)
        let oldOperators = try Self.elementPositions(sgTable, 3)
        let oldCodes = try Self.elementPositions(root, 1)
        let existingDequantize = operatorCodes.firstIndex { $0.builtinCode == dequantize && $0.customCode == nil }
        let dequantizeIndex = existingDequantize ?? operatorCodes.count

        var s = FlatBufferSplicer()
        // Fixed ids first: model, subgraphs list, subgraph, tensors list, operators list, codes list.
        let model = s.add(.table([]))  // replaced below, once child ids are known
        let subgraphsList = s.add(.refs([]))
        let subgraph = s.add(.table([]))
        let tensorsList = s.add(.refs([]))
        let operatorsList = s.add(.refs([]))
        let codesList = existingDequantize == nil ? s.add(.refs([])) : nil
        var newTensorRefs: [FlatBufferSplicer.Ref] = []
        var operatorRefs: [FlatBufferSplicer.Ref] = []
        var newTensorIndex = sg.tensors.count
        for (i, op) in sg.operators.enumerated() {
            guard targets.contains(i) else { operatorRefs.append(.old(oldOperators[i])); continue }
            let filterIndex = op.inputs[1]
            let filter = sg.tensors[filterIndex]
            let opTable = try sgTable.reader.table(at: oldOperators[i])
            // The float copy of the filter: same shape, no data, no quantization.
            let tensorTable = s.add(.table([]))
            let tensorId = tensorTable
            let shapeRef: FlatBufferSplicer.Ref =
                try Self.target(try sgTable.reader.table(at: oldTensors[filterIndex]), 0).map { .old($0) }
                ?? .new(s.add(.int32s(filter.shape.map { Int32($0) })))
            let name = s.add(.string(filter.name + "/dequantized"))
            s.replace(tensorTable, with: .table([(0, .ref(shapeRef)), (1, .i8(TensorType.float32.rawValue)), (2, .u32(0)), (3, .ref(.new(name)))]))
            newTensorRefs.append(.new(tensorId))
            // DEQUANTIZE(filter) → float filter.
            let dq = s.add(.table([]))
            let dqInputs = s.add(.int32s([Int32(filterIndex)]))
            let dqOutputs = s.add(.int32s([Int32(newTensorIndex)]))
            s.replace(dq, with: .table([(0, .u32(UInt32(dequantizeIndex))), (1, .ref(.new(dqInputs))), (2, .ref(.new(dqOutputs)))]))
            operatorRefs.append(.new(dq))
            // The depthwise op, reading the float filter; its other fields point at the old ones.
            var inputs = op.inputs.map { Int32($0) }
            inputs[1] = Int32(newTensorIndex)
            let conv = s.add(.table([]))
            let newInputs = s.add(.int32s(inputs))
            var fields: [(slot: Int, field: FlatBufferSplicer.Field)] = [(0, .u32(UInt32(op.opcodeIndex))), (1, .ref(.new(newInputs)))]
            if let outs = try Self.target(opTable, 2) { fields.append((2, .ref(.old(outs)))) }
            fields.append((3, .u8(try opTable.scalar(3, default: UInt8(0)))))
            if let options = try Self.target(opTable, 4) { fields.append((4, .ref(.old(options)))) }
            s.replace(conv, with: .table(fields))
            operatorRefs.append(.new(conv))
            newTensorIndex += 1
        }
        var sgFields: [(slot: Int, field: FlatBufferSplicer.Field)] = [(0, .ref(.new(tensorsList)))]
        for slot in [1, 2] { if let t = try Self.target(sgTable, slot) { sgFields.append((slot, .ref(.old(t)))) } }
        sgFields.append((3, .ref(.new(operatorsList))))
        if let t = try Self.target(sgTable, 4) { sgFields.append((4, .ref(.old(t)))) }
        s.replace(subgraph, with: .table(sgFields))
        s.replace(tensorsList, with: .refs(oldTensors.map { .old($0) } + newTensorRefs))
        s.replace(operatorsList, with: .refs(operatorRefs))
        s.replace(subgraphsList, with: .refs([.new(subgraph)] + oldSubgraphs.dropFirst().map { .old($0) }))
        var replacing: [Int: FlatBufferSplicer.Field] = [2: .ref(.new(subgraphsList))]
        if let codesList {
            let code = s.add(.table([(0, .i8(Int8(dequantize))), (2, .i32(2)), (3, .i32(dequantize))]))
            s.replace(codesList, with: .refs(oldCodes.map { .old($0) } + [.new(code)]))
            replacing[1] = .ref(.new(codesList))
        }
        s.replace(model, with: .table(try Self.modelFields(root, replacing: replacing)))
        var out = s.build(root: model, old: old, fileIdentifier: ModelFile.fileIdentifier)
        out += data[(try flatBufferEnd())..<data.count]
        return out
    }
}
