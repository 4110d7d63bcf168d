// libFuzzer target: the serve protocols' parsing (ServeProtocol) — Frigate's ZMQ requests (frames
// split from the input at 0xFE 0xFF) with the tensor layouts they hold, the query arguments of
// our JSON API ("name=value&…" after a first byte of 1), and DOODS2's /detect bodies (JSON after a
// first byte of 2).
import Foundation
import ServeProtocol

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzSeeds.writeIfAsked {
        let tensor = [UInt8](repeating: 7, count: 2 * 3 * 4)
        func frames(_ parts: [[UInt8]]) -> [UInt8] { [0] + parts.joined(separator: [0xFE, 0xFF]) }
        return [
            ("request.bin", frames([Array(#"{"model_request": true, "model_name": "ssd.tflite"}"#.utf8)])),
            ("data.bin", frames([Array(#"{"model_data": true, "model_name": "ssd.tflite"}"#.utf8), Array("TFL3".utf8)])),
            ("tensor.bin", frames([Array(#"{"shape": [1, 2, 4, 3], "dtype": "uint8", "model_type": "ssd"}"#.utf8), tensor])),
            ("planar.bin", frames([Array(#"{"shape": [1, 3, 2, 4], "dtype": "uint8"}"#.utf8), tensor])),
            ("float.bin", frames([Array(#"{"shape": [1, 3, 1, 2], "dtype": "float32"}"#.utf8), tensor])),
            ("query.bin", [1] + Array("maxResults=3&scoreThreshold=0.5&allow=dog,cat&roi=0.1,0.1,0.5,0.5&model=ssd".utf8)),
            (
                "doods.bin",
                [2]
                    + Array(
                        (#"{"id": "a", "detector_name": "default", "data": "/9j/4AAQ", "detect": {"*": 50, "dog": 30}, "#
                            + #""regions": [{"id": "r", "top": 0, "left": 0.1, "bottom": 0.5, "right": 1, "covers": true, "#
                            + #""detect": {"person": 40}}]}"#).utf8)
            ),
        ]
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if mode == 2 {
        _ = try? DoodsRequest.parse(rest)
        return 0
    }
    if mode == 1 {
        let text = String(decoding: rest, as: UTF8.self)
        let pairs = text.split(separator: "&").map { pair -> (name: String, value: String) in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return (String(kv.first ?? ""), kv.count > 1 ? String(kv[1]) : "")
        }
        let q = QueryReader(pairs)
        _ = try? q.int("maxResults", -1...1_000_000, nonZero: true)
        _ = try? q.float("scoreThreshold", 0...1)
        _ = q.list("allow")
        _ = try? q.region("roi")
        _ = q.canonical(excluding: ["model"])
        _ = try? q.checkKnown(["maxResults", "scoreThreshold", "allow", "roi", "model"])
        return 0
    }
    // Frames separated by 0xFE 0xFF.
    var frames: [[UInt8]] = [[]]
    var i = 0
    while i < rest.count {
        if i + 1 < rest.count && rest[i] == 0xFE && rest[i + 1] == 0xFF {
            frames.append([])
            i += 2
        } else {
            frames[frames.count - 1].append(rest[i])
            i += 1
        }
    }
    if case let .tensor(shape, dtype, _, tensor) = FrigateRequest.parse(Array(frames.prefix(4))), shape.count == 4 {
        _ = FrigateRequest.interleave(tensor, shape: shape, elementSize: FrigateRequest.elementSizes[dtype] ?? 1)
    }
    return 0
}
