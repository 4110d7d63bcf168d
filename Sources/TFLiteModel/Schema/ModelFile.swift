import FileInput
import Foundation

/// A `.tflite` file read in pure Swift: subgraphs, tensors, operators, buffers, metadata entries,
/// the TFLite metadata, and the zip of associated files appended to it.
package struct ModelFile: Sendable {
    /// The file's bytes: the file's mapping when read from a path, else a copy of the bytes given.
    package let data: FileBytes
    /// A copy of the file's bytes (``data`` reads them in place).
    package var bytes: [UInt8] { data.array }
    /// Schema version (3 for current models).
    package let version: UInt32
    package let description: String?
    package let operatorCodes: [OperatorCode]
    package let subgraphs: [Subgraph]
    /// Metadata entries of the model (name → buffer index), e.g. `TFLITE_METADATA`, `min_runtime_version`.
    package let metadataEntries: [(name: String, buffer: Int)]
    /// Number of buffers.
    package let bufferCount: Int
    private let root: FlatTable
    private let buffers: FlatVector?

    /// The `.tflite` file identifier.
    package static let fileIdentifier = "TFL3"

    /// Reads the model at `path` (mapped into memory, not copied: the file must not be modified in place
    /// while this lives — see `FileBytes`).
    package init(contentsOfFile path: String) throws {
        do {
            try self.init(data: try FileBytes(mapping: path, maxBytes: Int(Int32.max)))
        } catch let e as FileInputError {
            throw TFLiteModelError(
                .fileUnreadable, e.code == .notFound ? "Unable to open file at \(path)" : e.message, underlying: e)
        }
    }

    /// Parses a copy of `bytes`. Malformed input throws ``TFLiteModelError``; nothing traps.
    package init(bytes: [UInt8]) throws {
        try self.init(data: FileBytes(copying: bytes))
    }

    /// Parses `data` in place. Malformed input throws ``TFLiteModelError``; nothing traps.
    package init(data: FileBytes) throws {
        self.data = data
        guard data.count >= 8 else {
            throw TFLiteModelError(
                .truncated, "The model is not a valid FlatBuffer buffer: it has only \(data.count) bytes.")
        }
        let reader = try FlatBufferReader(data: data)
        guard reader.fileIdentifier == Self.fileIdentifier else {
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The model is not a valid FlatBuffer buffer: its file identifier is "
                    + "'\(Self.printable(reader.fileIdentifier ?? ""))', expected 'TFL3'. Is this a .tflite file?"
            )
        }
        let root = try reader.root()
        self.root = root
        version = try root.scalar(0, default: UInt32(0))
        operatorCodes = try root.tables(1).map { t in
            let deprecated: Int8 = try t.scalar(0, default: 0)
            let code: Int32 = try t.scalar(3, default: 0)
            return OperatorCode(
                builtinCode: max(Int32(deprecated), code), customCode: try t.string(1),
                version: try t.scalar(2, default: 1))
        }
        subgraphs = try root.tables(2).map(Self.subgraph)
        description = try root.string(3)
        buffers = try root.vector(4, elementSize: 4)
        bufferCount = buffers?.count ?? 0
        metadataEntries = try root.tables(6).map { (try $0.string(0) ?? "", Int(try $0.scalar(1, default: UInt32(0)))) }
        guard !subgraphs.isEmpty else {
            throw TFLiteModelError(
                .invalidFlatBuffer, "The model is not a valid FlatBuffer buffer: it has no subgraph.")
        }
    }

    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
    }

    static func subgraph(_ t: FlatTable) throws -> Subgraph {
        let tensors = try t.tables(0).map { x -> Tensor in
            var quant: Tensor.QuantizationParameters?
            if let q = try x.table(4) {
                let p = Tensor.QuantizationParameters(
                    scales: try q.floats(2), zeroPoints: try q.integers(3, Int64.self),
                    quantizedDimension: Int(try q.scalar(6, default: Int32(0))),
                    min: try q.floats(0), max: try q.floats(1))
                if !p.scales.isEmpty || !p.min.isEmpty { quant = p }
            }
            let rawType: Int8 = try x.scalar(1, default: 0)
            guard let type = TensorType(rawValue: rawType) else {
                throw TFLiteModelError(
                    .invalidFlatBuffer, "The model is not a valid FlatBuffer buffer: tensor type \(rawType) is unknown."
                )
            }
            let signature = try x.integers(7, Int32.self)
            return Tensor(
                name: try x.string(3) ?? "", shape: try x.integers(0, Int32.self).map(Int.init),
                shapeSignature: signature.isEmpty ? nil : signature.map(Int.init), type: type,
                buffer: Int(try x.scalar(2, default: UInt32(0))), quantization: quant, isVariable: try x.bool(5))
        }
        let operators = try t.tables(3).map { o in
            Operator(
                opcodeIndex: Int(try o.scalar(0, default: UInt32(0))),
                inputs: try o.integers(1, Int32.self).map(Int.init),
                outputs: try o.integers(2, Int32.self).map(Int.init), customOptions: try o.bytes(5))
        }
        return Subgraph(
            name: try t.string(4), tensors: tensors, inputs: try t.integers(1, Int32.self).map(Int.init),
            outputs: try t.integers(2, Int32.self).map(Int.init), operators: operators)
    }

    /// The bytes of buffer `index` (nil when it holds no data).
    package func buffer(_ index: Int) throws -> [UInt8]? {
        try bufferRange(index).map { Array(data[$0]) }
    }

    /// Where buffer `index`'s bytes are in ``data`` (nil when it holds no data).
    package func bufferRange(_ index: Int) throws -> Range<Int>? {
        guard let v = buffers, index >= 0, index < v.count else {
            throw TFLiteModelError(
                .invalidFlatBuffer,
                "The model is not a valid FlatBuffer buffer: buffer \(index) does not exist (there are \(bufferCount))."
            )
        }
        let b = try v.table(index)
        if let inline = try b.vector(0, elementSize: 1), inline.count > 0 { return inline.byteRange }
        let offset: UInt64 = try b.scalar(1, default: 0)
        let size: UInt64 = try b.scalar(2, default: 0)
        if offset > 1 {
            guard offset <= UInt64(data.count), size <= UInt64(data.count) - offset else {
                throw TFLiteModelError(
                    .truncated,
                    "Buffer \(index) lies at \(offset)+\(size), past the end of the \(data.count)-byte file.")
            }
            return Int(offset)..<Int(offset + size)
        }
        return nil
    }

    /// How many bytes buffer `index` holds (0 when none), without copying them.
    package func bufferSize(_ index: Int) throws -> Int {
        try bufferRange(index)?.count ?? 0
    }

    /// The bytes of the metadata entry `name`, or nil when the model has none by that name.
    package func metadataBuffer(named name: String) throws -> [UInt8]? {
        guard let entry = metadataEntries.first(where: { $0.name == name }) else { return nil }
        return try buffer(entry.buffer)
    }

    /// The parsed `TFLITE_METADATA`, or nil when the model has no metadata.
    package func modelMetadata() throws -> ModelMetadata? {
        guard let data = try metadataBuffer(named: ModelMetadata.entryName) else { return nil }
        return try ModelMetadata(flatBuffer: data)
    }

    /// The zip of associated files appended to the model, or nil when there is none.
    package func associatedFiles() throws -> ZipArchive? {
        try ZipArchive(data: data)
    }

    /// The names of the ops of subgraph `index`, in execution order.
    package func operatorNames(subgraph index: Int = 0) -> [String] {
        guard subgraphs.indices.contains(index) else { return [] }
        return subgraphs[index].operators.map { op in
            operatorCodes.indices.contains(op.opcodeIndex) ? operatorCodes[op.opcodeIndex].name : "UNKNOWN"
        }
    }

    /// The options of the model's `TFLite_Detection_PostProcess` op, if it has one.
    package func detectionPostProcessOptions() throws -> DetectionPostProcessOptions? {
        for sg in subgraphs {
            for op in sg.operators where operatorCodes.indices.contains(op.opcodeIndex) {
                let code = operatorCodes[op.opcodeIndex]
                if code.builtinCode == OperatorCode.custom && code.customCode == DetectionPostProcessOptions.opName {
                    guard let options = op.customOptions else {
                        throw TFLiteModelError(
                            .invalidCustomOptions, "\(DetectionPostProcessOptions.opName) has no custom options.")
                    }
                    return try DetectionPostProcessOptions(flexBuffer: options)
                }
            }
        }
        return nil
    }
}
