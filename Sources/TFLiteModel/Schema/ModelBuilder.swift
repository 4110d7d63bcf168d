/// Writes valid `.tflite` files: synthetic models for tests, and models with metadata added.
///
/// Operators may carry builtin options as a list of scalar fields (slot → value) of the option
/// table named by `builtinOptionsType` (`tflite::BuiltinOptions` union number).
package struct ModelBuilder: Sendable {
    /// A scalar field of a builtin-options table.
    package enum OptionValue: Sendable {
        case int8(Int8), int32(Int32), float(Float), bool(Bool)
        /// A vector of int32 (e.g. `ReshapeOptions.new_shape`).
        case int32s([Int32])
    }

    /// An operator to write.
    package struct Op: Sendable {
        package var opcodeIndex: Int
        package var inputs: [Int]
        package var outputs: [Int]
        package var builtinOptionsType: UInt8
        package var builtinOptions: [Int: OptionValue]
        package var customOptions: [UInt8]?

        package init(
            opcodeIndex: Int, inputs: [Int], outputs: [Int], builtinOptionsType: UInt8 = 0,
            builtinOptions: [Int: OptionValue] = [:], customOptions: [UInt8]? = nil
        ) {
            self.opcodeIndex = opcodeIndex
            self.inputs = inputs
            self.outputs = outputs
            self.builtinOptionsType = builtinOptionsType
            self.builtinOptions = builtinOptions
            self.customOptions = customOptions
        }
    }

    package var description: String
    package var operatorCodes: [OperatorCode]
    package var tensors: [Tensor]
    package var inputs: [Int]
    package var outputs: [Int]
    package var operators: [Op]
    /// Buffer contents; buffer 0 must stay empty (TFLite's sentinel).
    package var buffers: [[UInt8]]
    /// Named metadata entries, each written into a buffer of its own.
    package var metadata: [(name: String, data: [UInt8])]
    /// Extra copies of the subgraph to write after the main one (for testing multi-subgraph models).
    package var extraSubgraphCopies: Int = 0

    package init(description: String = "VisionTasks ModelBuilder") {
        self.description = description
        operatorCodes = []
        tensors = []
        inputs = []
        outputs = []
        operators = []
        buffers = [[]]
        metadata = []
    }

    /// Adds `bytes` as a new buffer and returns its index.
    package mutating func addBuffer(_ bytes: [UInt8]) -> Int {
        buffers.append(bytes)
        return buffers.count - 1
    }

    /// Adds a tensor and returns its index.
    package mutating func addTensor(_ tensor: Tensor) -> Int {
        tensors.append(tensor)
        return tensors.count - 1
    }

    /// Adds a constant float32 tensor.
    package mutating func addConstant(name: String, shape: [Int], floats: [Float]) -> Int {
        let bytes = floats.flatMap { f -> [UInt8] in
            let v = f.bitPattern; return (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) }
        }
        return addTensor(Tensor(name: name, shape: shape, type: .float32, buffer: addBuffer(bytes)))
    }

    /// Adds a constant int32 tensor.
    package mutating func addConstant(name: String, shape: [Int], int32s: [Int32]) -> Int {
        let bytes = int32s.flatMap { x -> [UInt8] in
            let v = UInt32(bitPattern: x); return (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) }
        }
        return addTensor(Tensor(name: name, shape: shape, type: .int32, buffer: addBuffer(bytes)))
    }

    /// Returns the index of `code` in the op-code table, adding it when new.
    package mutating func opcode(_ code: OperatorCode) -> Int {
        if let i = operatorCodes.firstIndex(of: code) { return i }
        operatorCodes.append(code)
        return operatorCodes.count - 1
    }

    /// False writes dangling buffer, op-code and tensor indices as given (for verifier tests).
    package var checksReferences = true

    /// Writes the model.
    package func build() throws -> [UInt8] {
        guard buffers.first?.isEmpty ?? false else {
            throw TFLiteModelError(.invalidBuilderInput, "Buffer 0 must be empty.")
        }
        for t in tensors where checksReferences && !buffers.indices.contains(t.buffer) {
            throw TFLiteModelError(
                .invalidBuilderInput, "Tensor \(t.name) refers to buffer \(t.buffer), which does not exist.")
        }
        for op in operators where checksReferences {
            guard operatorCodes.indices.contains(op.opcodeIndex),
                (op.inputs + op.outputs).allSatisfy({ $0 == -1 || tensors.indices.contains($0) })
            else {
                throw TFLiteModelError(
                    .invalidBuilderInput, "An operator refers to an op code or tensor that does not exist.")
            }
        }
        var b = FlatBufferBuilder()
        var allBuffers = buffers
        var metadataOffsets: [FlatBufferBuilder.Offset] = []
        var metadataBufferIndices: [Int] = []
        for entry in metadata {
            allBuffers.append(entry.data)
            metadataBufferIndices.append(allBuffers.count - 1)
        }
        let bufferTables = allBuffers.map { data -> FlatBufferBuilder.Offset in
            let vec = data.isEmpty ? nil : b.bytes(data, alignment: 16)
            b.startTable()
            if let vec { b.add(0, vec) }
            return b.endTable()
        }
        let buffersVector = b.vector(bufferTables)
        for (entry, index) in zip(metadata, metadataBufferIndices) {
            let name = b.string(entry.name)
            b.startTable(); b.add(0, name); b.add(1, UInt32(index))
            metadataOffsets.append(b.endTable())
        }
        let metadataVector = metadataOffsets.isEmpty ? nil : b.vector(metadataOffsets)

        let tensorTables = tensors.map { t -> FlatBufferBuilder.Offset in
            let shape = b.vector(t.shape.map { Int32($0) })
            let signature = t.shapeSignature.map { b.vector($0.map { Int32($0) }) }
            let name = b.string(t.name)
            var quant: FlatBufferBuilder.Offset?
            if let q = t.quantization {
                let mn = q.min.isEmpty ? nil : b.vector(q.min)
                let mx = q.max.isEmpty ? nil : b.vector(q.max)
                let scale = b.vector(q.scales)
                let zp = b.vector(q.zeroPoints)
                b.startTable()
                if let mn { b.add(0, mn) }
                if let mx { b.add(1, mx) }
                b.add(2, scale)
                b.add(3, zp)
                b.add(6, Int32(q.quantizedDimension))
                quant = b.endTable()
            }
            b.startTable()
            b.add(0, shape)
            b.add(1, t.type.rawValue)
            b.add(2, UInt32(t.buffer))
            b.add(3, name)
            if let quant { b.add(4, quant) }
            if t.isVariable { b.add(5, true) }
            if let signature { b.add(7, signature) }
            return b.endTable()
        }
        let tensorsVector = b.vector(tensorTables)
        let opTables = operators.map { op -> FlatBufferBuilder.Offset in
            let ins = b.vector(op.inputs.map { Int32($0) })
            let outs = b.vector(op.outputs.map { Int32($0) })
            let custom = op.customOptions.map { b.bytes($0) }
            var options: FlatBufferBuilder.Offset?
            if op.builtinOptionsType != 0 {
                var vectors: [Int: FlatBufferBuilder.Offset] = [:]
                for (slot, value) in op.builtinOptions {
                    if case .int32s(let v) = value { vectors[slot] = b.vector(v) }
                }
                b.startTable()
                for (slot, value) in op.builtinOptions.sorted(by: { $0.key < $1.key }) {
                    switch value {
                    case .int8(let v): b.add(slot, v)
                    case .int32(let v): b.add(slot, v)
                    case .float(let v): b.add(slot, v)
                    case .bool(let v): b.add(slot, v)
                    case .int32s: if let o = vectors[slot] { b.add(slot, o) }
                    }
                }
                options = b.endTable()
            }
            b.startTable()
            b.add(0, UInt32(op.opcodeIndex))
            b.add(1, ins)
            b.add(2, outs)
            if let options { b.add(3, op.builtinOptionsType); b.add(4, options) }
            if let custom { b.add(5, custom) }
            return b.endTable()
        }
        let opsVector = b.vector(opTables)
        let inputsVector = b.vector(inputs.map { Int32($0) })
        let outputsVector = b.vector(outputs.map { Int32($0) })
        let subgraphName = b.string("main")
        b.startTable()
        b.add(0, tensorsVector)
        b.add(1, inputsVector)
        b.add(2, outputsVector)
        b.add(3, opsVector)
        b.add(4, subgraphName)
        let subgraph = b.endTable()
        let subgraphs = b.vector(
            [FlatBufferBuilder.Offset](repeating: subgraph, count: 1 + max(0, extraSubgraphCopies)))
        let codes = operatorCodes.map { c -> FlatBufferBuilder.Offset in
            let custom = c.customCode.map { b.string($0) }
            b.startTable()
            b.add(0, Int8(clamping: min(c.builtinCode, 127)))
            if let custom { b.add(1, custom) }
            b.add(2, c.version)
            b.add(3, c.builtinCode)
            return b.endTable()
        }
        let codesVector = b.vector(codes)
        let desc = b.string(description)
        b.startTable()
        b.add(0, UInt32(3))
        b.add(1, codesVector)
        b.add(2, subgraphs)
        b.add(3, desc)
        b.add(4, buffersVector)
        if let metadataVector { b.add(6, metadataVector) }
        let root = b.endTable()
        return b.finish(root, fileIdentifier: ModelFile.fileIdentifier)
    }

    /// Writes a model with `metadata` as its `TFLITE_METADATA` and `files` appended as a zip.
    package func build(
        metadata: ModelMetadata, files: [(name: String, contents: [UInt8])], deflate: Bool = false
    ) throws -> [UInt8] {
        var copy = self
        copy.metadata.append((ModelMetadata.entryName, metadata.flatBuffer()))
        var bytes = try copy.build()
        if !files.isEmpty { bytes += try ZipArchive.write(files, deflate: deflate) }
        return bytes
    }
}
