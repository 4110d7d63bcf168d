import CLiteRT
import FileInput
import Foundation

/// A `.tflite` model loaded by LiteRT, from a file or from bytes.
// @unchecked Sendable: immutable; LiteRT only reads a model after loading it (compiled models are
// made from it on any thread), and the bytes it reads are never written.
package final class Model: @unchecked Sendable {
    /// The environment the model belongs to.
    package let environment: Environment
    let handle: LiteRtModel
    /// What keeps bytes given in place alive (see ``init(inPlace:owner:environment:)``).
    private let owner: AnyObject?
    /// The bytes LiteRT reads, for models made from bytes (nil for models loaded by path).
    package let bytes: UnsafeRawBufferPointer?

    /// Loads the model at `path`.
    package init(path: String, environment: Environment? = nil) throws {
        let env = try environment ?? Environment.shared()
        self.environment = env
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw LiteRTError(
                code: .invalidArgument, function: "LiteRtCreateModelFromFile",
                message: "Unable to open model file at \(path): no such readable file.")
        }
        var model: LiteRtModel?
        try check(
            env.library.api.createModelFromFile(env.handle, path, &model), "LiteRtCreateModelFromFile",
            "\(path) is not a valid TFLite model (LiteRT could not read it as a flatbuffer).")
        guard let model else {
            throw LiteRTError(code: .callFailed, function: "LiteRtCreateModelFromFile", message: "returned no model")
        }
        handle = model
        owner = nil
        self.bytes = nil
    }

    /// Loads a model from bytes. The bytes are copied into 64-byte-aligned memory that lives as long
    /// as the model.
    package convenience init<Bytes: Collection>(bytes: Bytes, environment: Environment? = nil) throws
    where Bytes.Element == UInt8 {
        let copy = FileBytes(copying: bytes)
        try self.init(inPlace: copy.buffer, owner: copy, environment: environment)
    }

    /// Loads a model from bytes that LiteRT reads in place, without a copy: `bytes` must start on a
    /// 64-byte boundary and stay valid and unchanged while `owner` lives (the model keeps `owner`),
    /// e.g. a model file's read-only mapping.
    package init(inPlace bytes: UnsafeRawBufferPointer, owner: AnyObject, environment: Environment? = nil) throws {
        let env = try environment ?? Environment.shared()
        self.environment = env
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw LiteRTError(
                code: .invalidArgument, function: "LiteRtCreateModelFromBuffer", message: "The model buffer is empty.")
        }
        guard Int(bitPattern: base) % 64 == 0 else {
            throw LiteRTError(
                code: .invalidArgument, function: "LiteRtCreateModelFromBuffer",
                message: "The model buffer must start on a 64-byte boundary to be read in place.")
        }
        var model: LiteRtModel?
        let status = env.library.api.createModelFromBuffer(env.handle, base, bytes.count, &model)
        guard status == 0, let model else {
            throw LiteRTError(
                code: .callFailed, function: "LiteRtCreateModelFromBuffer", status: status,
                message: "The buffer is not a valid TFLite model (LiteRT could not read it as a flatbuffer).")
        }
        handle = model
        self.owner = owner
        self.bytes = bytes
    }

    deinit {
        environment.library.api.destroyModel(handle)
    }

    /// The keys of the model's signatures (`"<placeholder signature>"` for models without any).
    package func signatureKeys() throws -> [String] {
        let api = environment.library.api
        var count = 0
        try check(api.getNumModelSignatures(handle, &count), "LiteRtGetNumModelSignatures")
        return try (0..<count).map { i in
            var sig: LiteRtSignature?
            try check(api.getModelSignature(handle, i, &sig), "LiteRtGetModelSignature")
            var key: UnsafePointer<CChar>?
            try check(api.getSignatureKey(sig, &key), "LiteRtGetSignatureKey")
            return key.map { String(cString: $0) } ?? ""
        }
    }

    struct SignatureTensor {
        var name: String
        var tensorName: String
        var elementType: ElementType
        var quantization: Quantization?
    }

    /// Names, element types and quantization of signature 0's inputs or outputs.
    func signatureTensors(inputs: Bool) throws -> [SignatureTensor] {
        let api = environment.library.api
        var sig: LiteRtSignature?
        try check(api.getModelSignature(handle, 0, &sig), "LiteRtGetModelSignature", "The model has no signature.")
        var count = 0
        try check(
            (inputs ? api.getNumSignatureInputs : api.getNumSignatureOutputs)(sig, &count),
            inputs ? "LiteRtGetNumSignatureInputs" : "LiteRtGetNumSignatureOutputs")
        return try (0..<count).map { i in
            var cname: UnsafePointer<CChar>?
            try check(
                (inputs ? api.getSignatureInputName : api.getSignatureOutputName)(sig, i, &cname),
                "LiteRtGetSignatureIOName")
            var tensor: LiteRtTensor?
            try check(
                (inputs ? api.getSignatureInputTensorByIndex : api.getSignatureOutputTensorByIndex)(sig, i, &tensor),
                "LiteRtGetSignatureIOTensorByIndex")
            var tname: UnsafePointer<CChar>?
            try check(api.getTensorName(tensor, &tname), "LiteRtGetTensorName")
            var ranked = LiteRtRankedTensorType()
            try check(api.getRankedTensorType(tensor, &ranked), "LiteRtGetRankedTensorType")
            var qtype: Int32 = 0
            try check(api.getQuantizationTypeId(tensor, &qtype), "LiteRtGetQuantizationTypeId")
            var quant: Quantization?
            if qtype == 1 {
                var q = LiteRtQuantizationPerTensor()
                try check(api.getPerTensorQuantization(tensor, &q), "LiteRtGetPerTensorQuantization")
                quant = Quantization(scale: q.scale, zeroPoint: q.zero_point)
            }
            guard let type = ElementType(rawValue: ranked.element_type) else {
                throw LiteRTError(
                    code: .invalidArgument, message: "Tensor \(i) has unknown element type \(ranked.element_type).")
            }
            return SignatureTensor(
                name: cname.map { String(cString: $0) } ?? "", tensorName: tname.map { String(cString: $0) } ?? "",
                elementType: type, quantization: quant)
        }
    }
}
