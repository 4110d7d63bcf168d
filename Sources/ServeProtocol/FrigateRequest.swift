import Foundation

/// One request of Frigate's `zmq` detector, read from its frames: the model handshake
/// (`{"model_request": true, "model_name": …}`), a model upload (`{"model_data": true, "model_name":
/// …}` + the model's bytes), or a tensor (`{"shape": […], "dtype": …, "model_type": …}` + its raw
/// C-order bytes, their count checked against the shape); anything else is invalid, with why.
package enum FrigateRequest: Equatable, Sendable {
    case modelRequest(name: String)
    case modelData(name: String, bytes: [UInt8])
    case tensor(shape: [Int], dtype: String, modelType: String?, bytes: [UInt8])
    case invalid(String)

    /// The element sizes of the dtypes a tensor may have.
    package static let elementSizes = ["uint8": 1, "int8": 1, "float32": 4]

    /// The request `frames` hold.
    package static func parse(_ frames: [[UInt8]]) -> FrigateRequest {
        guard let first = frames.first else { return .invalid("an empty request") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(first)), let header = object as? [String: Any]
        else {
            return .invalid("the first frame is not a JSON object (\(frames.count) frame(s), \(first.count) bytes)")
        }
        let name = header["model_name"] as? String ?? ""
        if header["model_request"] as? Bool == true { return .modelRequest(name: name) }
        if header["model_data"] as? Bool == true {
            guard frames.count >= 2 else { return .invalid("a model upload without the model's frame") }
            return .modelData(name: name, bytes: frames[1])
        }
        guard frames.count >= 2 else { return .invalid("a header without a tensor frame") }
        guard let dims = header["shape"] as? [Any], !dims.isEmpty, dims.count <= 8 else {
            return .invalid("the header's shape is not a list of 1 to 8 sizes")
        }
        var shape: [Int] = []
        var count = 1
        for dim in dims {
            guard let number = dim as? NSNumber, let size = Int(exactly: number.doubleValue),
                (1...(1 << 20)).contains(size)
            else {
                return .invalid("the header's shape \(dims) holds a size that is not a whole number from 1 to 1048576")
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, product <= 1 << 30 else {
                return .invalid("the shape \(dims) holds more than 2^30 elements")
            }
            count = product
            shape.append(size)
        }
        let dtype = header["dtype"] as? String ?? "float32"
        guard let size = elementSizes[dtype] else {
            return .invalid("dtype '\(dtype)' is not one of \(elementSizes.keys.sorted().joined(separator: ", "))")
        }
        guard frames[1].count == count * size else {
            return .invalid(
                "a \(dtype) tensor of shape \(shape) takes \(count * size) bytes, the frame has \(frames[1].count)")
        }
        return .tensor(shape: shape, dtype: dtype, modelType: header["model_type"] as? String, bytes: frames[1])
    }

    /// A tensor of `shape` `[N, C, H, W]` (planar) rewritten as `[N, H, W, C]` (interleaved), each element
    /// `elementSize` bytes; nil when the shape is not 4-D or the bytes do not match it.
    package static func interleave(_ bytes: [UInt8], shape: [Int], elementSize: Int) -> [UInt8]? {
        guard shape.count == 4, elementSize > 0 else { return nil }
        let batches = shape[0], channels = shape[1], plane = shape[2] * shape[3]
        guard batches * channels * plane * elementSize == bytes.count else { return nil }
        var out = [UInt8](repeating: 0, count: bytes.count)
        for n in 0..<batches {
            let base = n * channels * plane * elementSize
            for c in 0..<channels {
                for p in 0..<plane {
                    let from = base + (c * plane + p) * elementSize, to = base + (p * channels + c) * elementSize
                    for k in 0..<elementSize { out[to + k] = bytes[from + k] }
                }
            }
        }
        return out
    }
}
