import FileInput

extension ModelFile {
    /// Where the model's own flatbuffer ends: the start of the appended zip, or the file's end.
    package func flatBufferEnd() throws -> Int {
        guard let archive = try associatedFiles(), let first = archive.entries.map(\.localHeaderOffset).min() else {
            return data.count
        }
        return first
    }

    /// The model's flatbuffer (and any buffer data kept behind it, up to the appended zip) and its root table.
    func spliceable() throws -> (old: Slice<UnsafeRawBufferPointer>, reader: FlatBufferReader, root: FlatTable) {
        let end = try flatBufferEnd()
        guard end >= 0, end <= data.count else {
            throw TFLiteModelError(.truncated, "The model's flatbuffer ends at \(end), past its \(data.count) bytes.")
        }
        let old = data[0..<end]
        let reader = try FlatBufferReader(data: data, count: end)
        return (old, reader, try reader.root())
    }

    /// Whether some Buffer table locates its bytes by an absolute file offset (litert-torch's
    /// exports, models over 2 GB): a splice then moves those offsets by its head's size.
    static func hasAbsoluteBuffers(_ root: FlatTable) throws -> Bool {
        guard let buffers = try root.vector(4, elementSize: 4) else { return false }
        for i in 0..<buffers.count where try buffers.table(i).scalar(1, default: UInt64(0)) > 1 { return true }
        return false
    }

    /// The model's buffer list for a splice whose old bytes sit `shift` bytes later: the old Buffer
    /// tables, except those at absolute file offsets, which become new tables (added to `s`) with
    /// the offset moved by `shift`. Returns the list's id (a placeholder the caller fills with
    /// `refs`, plus any buffer of its own) and the references.
    static func bufferList(
        _ s: inout FlatBufferSplicer, root: FlatTable, shift: Int
    ) throws -> (list: Int, refs: [FlatBufferSplicer.Ref]) {
        let list = s.add(.refs([]))
        guard let buffers = try root.vector(4, elementSize: 4) else { return (list, []) }
        let positions = try elementPositions(root, 4)
        var refs: [FlatBufferSplicer.Ref] = []
        for i in 0..<buffers.count {
            let table = try buffers.table(i)
            let offset: UInt64 = try table.scalar(1, default: 0)
            guard offset > 1 else {
                refs.append(.old(positions[i]))
                continue
            }
            let size: UInt64 = try table.scalar(2, default: 0)
            refs.append(.new(s.add(.table([(1, .u64(offset + UInt64(shift))), (2, .u64(size))]))))
        }
        return (list, refs)
    }

    /// ``modelFields(_:replacing:)`` for a splice whose old bytes sit `shift` bytes later: when the
    /// model has buffers at absolute file offsets (and `replacing` keeps the buffer list), the list
    /// is rebuilt with those offsets moved (``bufferList(_:root:shift:)``).
    static func splicedModelFields(
        _ root: FlatTable, replacing: [Int: FlatBufferSplicer.Field], _ s: inout FlatBufferSplicer, shift: Int
    ) throws -> [(slot: Int, field: FlatBufferSplicer.Field)] {
        var replacing = replacing
        if replacing[4] == nil, try hasAbsoluteBuffers(root) {
            let (list, refs) = try bufferList(&s, root: root, shift: shift)
            s.replace(list, with: .refs(refs))
            replacing[4] = .ref(.new(list))
        }
        return try modelFields(root, replacing: replacing)
    }

    /// A splice's head. `make(shift)` lays out the new objects for old bytes moved `shift` bytes
    /// later and returns the splicer and its root; when the model has buffers at absolute offsets
    /// the layout is made twice — to learn the head's size, then with the offsets moved by it
    /// (the head's size does not depend on the offsets' values).
    static func spliceHead(
        _ root: FlatTable, _ make: (_ shift: Int) throws -> (FlatBufferSplicer, Int)
    ) throws -> [UInt8] {
        let (first, firstRoot) = try make(0)
        let head = first.head(root: firstRoot, fileIdentifier: fileIdentifier)
        guard try hasAbsoluteBuffers(root) else { return head }
        let (second, secondRoot) = try make(head.count)
        let moved = second.head(root: secondRoot, fileIdentifier: fileIdentifier)
        guard moved.count == head.count else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "The rewrite's head changed size (\(head.count) → \(moved.count) bytes) when its buffer offsets moved.")
        }
        return moved
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
    static func modelFields(
        _ root: FlatTable, replacing: [Int: FlatBufferSplicer.Field]
    ) throws -> [(slot: Int, field: FlatBufferSplicer.Field)] {
        var fields: [(slot: Int, field: FlatBufferSplicer.Field)] = [(0, .u32(try root.scalar(0, default: UInt32(3))))]
        for slot in 1...7 {
            if let f = replacing[slot] {
                fields.append((slot, f))
            } else if let t = try target(root, slot) {
                fields.append((slot, .ref(.old(t))))
            }
        }
        return fields
    }

    /// The model with `metadata` as its `TFLITE_METADATA` (replacing any) and `files` as its
    /// appended zip (replacing any), everything else byte for byte as it was: a small new head
    /// (a root table, the buffer and metadata lists with one more entry) in front of the
    /// unchanged flatbuffer (buffers at absolute file offsets moved with it).
    package func replacingMetadata(
        _ metadata: ModelMetadata, files: [(name: String, contents: [UInt8])], deflate: Bool = false
    ) throws -> [UInt8] {
        let (old, reader, root) = try spliceable()
        let keptMetadata = try Self.elementPositions(root, 6).filter {
            try reader.table(at: $0).string(0) != ModelMetadata.entryName
        }
        let bufferCount = try root.vector(4, elementSize: 4)?.count ?? 0
        let head = try Self.spliceHead(root) { shift in
            var s = FlatBufferSplicer()
            let model = s.add(.table([]))
            let (buffers, bufferRefs) = try Self.bufferList(&s, root: root, shift: shift)
            let metadataList = s.add(.refs([]))
            let entry = s.add(.table([]))
            let name = s.add(.string(ModelMetadata.entryName))
            let buffer = s.add(.table([]))
            let bytes = s.add(.bytes(metadata.flatBuffer()))
            s.replace(
                model,
                with: .table(
                    try Self.modelFields(root, replacing: [4: .ref(.new(buffers)), 6: .ref(.new(metadataList))])))
            s.replace(buffers, with: .refs(bufferRefs + [.new(buffer)]))
            s.replace(metadataList, with: .refs(keptMetadata.map { .old($0) } + [.new(entry)]))
            s.replace(entry, with: .table([(0, .ref(.new(name))), (1, .u32(UInt32(bufferCount)))]))
            s.replace(buffer, with: .table([(0, .ref(.new(bytes)))]))
            return (s, model)
        }
        var out = head
        out.append(contentsOf: old)
        if !files.isEmpty { out += try ZipArchive.write(files, deflate: deflate) }
        return out
    }

    /// For "hybrid" models (float activations, int8 weights): the same model in which every
    /// DEPTHWISE_CONV_2D with an int8 constant filter reads that filter through a DEQUANTIZE op
    /// instead. XNNPACK does not run hybrid depthwise convolutions (LiteRT falls back to a slow
    /// built-in kernel) but folds DEQUANTIZE of constant weights at compile time and runs the
    /// convolution in float. The int8 weights stay stored as they are; metadata and the appended
    /// zip are kept. Returns nil when the model has no such op.
    package func dequantizingHybridDepthwiseFilters() throws -> [UInt8]? {
        guard let sg = subgraphs.first else { return nil }
        let depthwise: Int32 = 4, dequantize: Int32 = 6
        let targets = sg.operators.indices.filter { i in
            let op = sg.operators[i]
            guard operatorCodes.indices.contains(op.opcodeIndex),
                operatorCodes[op.opcodeIndex].builtinCode == depthwise,
                op.inputs.count >= 2, sg.tensors.indices.contains(op.inputs[0]),
                sg.tensors.indices.contains(op.inputs[1])
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

        let head = try Self.spliceHead(root) { shift in
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
                s.replace(
                    tensorTable,
                    with: .table([
                        (0, .ref(shapeRef)), (1, .i8(TensorType.float32.rawValue)), (2, .u32(0)), (3, .ref(.new(name))),
                    ]))
                newTensorRefs.append(.new(tensorId))
                // DEQUANTIZE(filter) → float filter.
                let dq = s.add(.table([]))
                let dqInputs = s.add(.int32s([Int32(filterIndex)]))
                let dqOutputs = s.add(.int32s([Int32(newTensorIndex)]))
                s.replace(
                    dq,
                    with: .table([
                        (0, .u32(UInt32(dequantizeIndex))), (1, .ref(.new(dqInputs))), (2, .ref(.new(dqOutputs))),
                    ]))
                operatorRefs.append(.new(dq))
                // The depthwise op, reading the float filter; its other fields point at the old ones.
                var inputs = op.inputs.map { Int32($0) }
                inputs[1] = Int32(newTensorIndex)
                let conv = s.add(.table([]))
                let newInputs = s.add(.int32s(inputs))
                var fields: [(slot: Int, field: FlatBufferSplicer.Field)] = [
                    (0, .u32(UInt32(op.opcodeIndex))), (1, .ref(.new(newInputs))),
                ]
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
            let fields = try Self.splicedModelFields(root, replacing: replacing, &s, shift: shift)
            s.replace(model, with: .table(fields))
            return (s, model)
        }
        var out = head
        out.append(contentsOf: old)
        out += data[(try flatBufferEnd())..<data.count]
        return out
    }
}
