/// Tensor element types as the `.tflite` schema numbers them (`tflite::TensorType`).
package enum TensorType: Int8, Sendable, CustomStringConvertible, CaseIterable {
    case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6, int16 = 7
    case complex64 = 8, int8 = 9, float64 = 10, complex128 = 11, uint64 = 12, resource = 13
    case variant = 14, uint32 = 15, uint16 = 16, int4 = 17, bfloat16 = 18

    package var description: String {
        switch self {
        case .float32: return "FLOAT32"
        case .float16: return "FLOAT16"
        case .int32: return "INT32"
        case .uint8: return "UINT8"
        case .int64: return "INT64"
        case .string: return "STRING"
        case .bool: return "BOOL"
        case .int16: return "INT16"
        case .complex64: return "COMPLEX64"
        case .int8: return "INT8"
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
