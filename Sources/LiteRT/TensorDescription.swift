import CLiteRT

/// Element types of tensors (LiteRT's `LiteRtElementType` values).
package enum ElementType: Int32, Sendable, CustomStringConvertible {
    case none = 0, float32 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6, int16 = 7
    case complex64 = 8, int8 = 9, float16 = 10, float64 = 11, complex128 = 12, uint64 = 13
    case resource = 14, variant = 15, uint32 = 16, uint16 = 17, int4 = 18, bfloat16 = 19

    /// Bytes per element (0 for variable-size or sub-byte types).
    package var byteSize: Int {
        switch self {
        case .float32, .int32, .uint32: return 4
        case .uint8, .int8, .bool: return 1
        case .int64, .uint64, .float64, .complex64: return 8
        case .int16, .uint16, .float16, .bfloat16: return 2
        case .complex128: return 16
        default: return 0
        }
    }

    package var description: String {
        switch self {
        case .none: return "NONE"
        case .float32: return "FLOAT32"
        case .int32: return "INT32"
        case .uint8: return "UINT8"
        case .int64: return "INT64"
        case .string: return "STRING"
        case .bool: return "BOOL"
        case .int16: return "INT16"
        case .complex64: return "COMPLEX64"
        case .int8: return "INT8"
        case .float16: return "FLOAT16"
        case .float64: return "FLOAT64"
        case .complex128: return "COMPLEX128"
        case .uint64: return "UINT64"
        case .resource: return "RESOURCE"
        case .variant: return "VARIANT"
        case .uint32: return "UINT32"
        case .uint16: return "UINT16"
        case .int4: return "INT4"
        case .bfloat16: return "BFLOAT16"
        }
    }
}

/// Per-tensor affine quantization: `real = scale * (q - zeroPoint)`.
package struct Quantization: Equatable, Sendable {
    package var scale: Float
    package var zeroPoint: Int64
    package init(scale: Float, zeroPoint: Int64) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}

/// One input or output of a compiled model: name, type, concrete shape and quantization.
package struct TensorDescription: Equatable, Sendable {
    /// The signature's name for this tensor (the tensor name for models without signatures).
    package var name: String
    /// The name of the model tensor behind it (differs from ``name`` for models with signatures).
    package var tensorName: String
    package var elementType: ElementType
    /// The concrete shape after compilation (no dynamic dimensions).
    package var shape: [Int]
    /// Per-tensor quantization, or nil for unquantized tensors.
    package var quantization: Quantization?
    /// Size of the tensor's data in bytes.
    package var byteCount: Int

    package init(
        name: String, tensorName: String? = nil, elementType: ElementType, shape: [Int], quantization: Quantization?,
        byteCount: Int
    ) {
        self.name = name
        self.tensorName = tensorName ?? name
        self.elementType = elementType
        self.shape = shape
        self.quantization = quantization
        self.byteCount = byteCount
    }

    /// Number of elements.
    package var elementCount: Int { shape.reduce(1, *) }
}

extension LiteRtLayout {
    var dims: [Int] {
        let r = Int(rank)
        return withUnsafeBytes(of: dimensions) { raw in
            (0..<min(r, 8)).map { Int(raw.load(fromByteOffset: $0 * 4, as: Int32.self)) }
        }
    }
}
