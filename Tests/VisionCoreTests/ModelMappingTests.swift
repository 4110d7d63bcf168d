import CKernelFormats
import CKernels
import FileInput
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// The model file held once: mapped rather than read, parsed in place, handed to LiteRT in place when
/// nothing is rewritten, and mapped again behind the rewrite's head when VisionTasks' kernels take
/// some ops (whose filters the kernels read from the model instead of copies in the custom options).
@Suite("Model files held once")
struct ModelMappingTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "vt-mapping-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file is mapped read-only at a 64-byte boundary, with the file's bytes")
    func mapping() throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = try Self.temporaryFile(bytes)
        defer { unlink(path) }
        let data = try FileBytes(mapping: path, maxBytes: 1 << 20)
        #expect(data.isMapped && data.count == bytes.count && data.array == bytes)
        #expect(Int(bitPattern: data.buffer.baseAddress) % 64 == 0)
        #expect(Array(data[100..<104]) == Array(bytes[100..<104]) && data[9_999] == bytes[9_999])
    }

    @Test("missing, directory, too large and empty files")
    func mappingErrors() throws {
        #expect(throws: FileInputError(.notFound, "Unable to open file at /nonexistent/model.tflite")) {
            try FileBytes(mapping: "/nonexistent/model.tflite", maxBytes: 100)
        }
        #expect(throws: FileInputError(.notRegularFile, "Unable to open file at /tmp: it is a directory")) {
            try FileBytes(mapping: "/tmp", maxBytes: 100)
        }
        let path = try Self.temporaryFile([UInt8](repeating: 1, count: 200))
        defer { unlink(path) }
        #expect(
            throws: FileInputError(.tooLarge, "Unable to open file at \(path): its 200 bytes exceed the limit of 100")
        ) {
            try FileBytes(mapping: path, maxBytes: 100)
        }
        let empty = try Self.temporaryFile([])
        defer { unlink(empty) }
        let data = try FileBytes(mapping: empty, maxBytes: 100)
        #expect(data.count == 0 && !data.isMapped)
        #expect(
            throws: TFLiteModelError(.truncated, "The model is not a valid FlatBuffer buffer: it has only 0 bytes.")
        ) { try ModelFile(data: data) }
    }

    @Test("a head followed by a mapped file maps the file again; by a copy, or with an unaligned head, copies")
    func joining() throws {
        let tailBytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let path = try Self.temporaryFile(tailBytes)
        defer { unlink(path) }
        let mapped = try FileBytes(mapping: path, maxBytes: 1 << 20)
        let head = (0..<192).map { UInt8(truncatingIfNeeded: $0 &+ 100) }
        for tail in [mapped, FileBytes(copying: tailBytes)] {
            for h in [head, Array(head.prefix(100))] {
                let joined = FileBytes(head: h, followedBy: tail)
                #expect(joined.array == h + tailBytes)
                #expect(joined.isMapped == (tail.isMapped && h.count % 64 == 0))
                #expect(Int(bitPattern: joined.buffer.baseAddress) % 64 == 0)
            }
        }
    }

    @Test("a file replaced since it was mapped is not mapped again behind a head: the bytes are copied")
    func replacedFile() throws {
        let original = (0..<20_000).map { UInt8(truncatingIfNeeded: $0) }
        let path = try Self.temporaryFile(original)
        defer { unlink(path) }
        let mapped = try FileBytes(mapping: path, maxBytes: 1 << 20)
        let replacement = try Self.temporaryFile([UInt8](repeating: 9, count: 20_000))
        #expect(rename(replacement, path) == 0)
        let head = [UInt8](repeating: 1, count: 64)
        let joined = FileBytes(head: head, followedBy: mapped)
        #expect(!joined.isMapped && joined.array == head + original)
    }

    @Test(
        "LiteRT runs the file's own mapping when nothing is rewritten, and models from memory are copied once",
        .enabled(if: TestAssets.shouldRun))
    func inPlace() throws {
        let path = TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")
        let resources = try ModelResources(path: path, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        #expect(resources.customOps.isEmpty && resources.file.data.isMapped)
        let runtime = try #require(resources.runtimeModel.bytes)
        #expect(
            runtime.baseAddress == resources.file.data.buffer.baseAddress && runtime.count == resources.file.data.count)
        let fromMemory = try ModelResources(
            bytes: try TestAssets.bytes(path), kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        #expect(
            try !fromMemory.file.data.isMapped
                && fromMemory.runtimeModel.bytes?.baseAddress == fromMemory.file.data.buffer.baseAddress)
    }

    @Test(
        "a rewritten model is its head followed by the same file mapped again; the filters stay in the model",
        .enabled(if: TestAssets.shouldRun))
    func rewritten() throws {
        let path = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let resources = try ModelResources(path: path, kernels: .standard.with(conv1x1: true))
        #expect(resources.quantizedConvOps == 29 && resources.quantizedSpatialConvOps == 5)
        let file = resources.file.data
        let runtime = try #require(resources.runtimeModel.bytes)
        let headCount = runtime.count - file.count
        #expect(headCount > 0 && headCount % 64 == 0 && Int(bitPattern: runtime.baseAddress) % 64 == 0)
        #expect(memcmp(runtime.baseAddress! + headCount, file.buffer.baseAddress!, file.count) == 0)
        // The head holds the ops' parameters, not their filters (~3.4 MB of the file's 4 MB).
        #expect(headCount < 200_000, "head of \(headCount) bytes")
        let compiled = try CompiledModel(model: resources.runtimeModel, threads: 1, customOps: resources.customOps)
        #expect(compiled.customKernelCount == 34)  // and the five 3×3 convolutions
    }

    @Test(
        """
        1×1 options whose filter is not inside the model's bytes, not the filter they were made for, or of another \
        version, are refused
        """
    )
    func filterReferences() {
        let model = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        let modelDigest = { (fromEnd: Int) -> UInt64 in
            model.withUnsafeBytes {
                ModelFile.filterDigest(UnsafeRawBufferPointer(rebasing: $0[(64 - fromEnd)..<(64 - fromEnd + 8)]))
            }
        }
        // VTHC version 2: K = 4, N = 2, activation 0, the filter's place and digest, scales, bias.
        func options(version: Int32 = 2, fromEnd: UInt64, digest: UInt64? = nil) -> [UInt8] {
            var out = Array("VTHC".utf8)
            for v in [version, 4, 2, 0] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            withUnsafeBytes(of: fromEnd.littleEndian) { out += $0 }
            let d = digest ?? (fromEnd >= 8 && fromEnd <= 64 ? modelDigest(Int(fromEnd)) : 0)
            withUnsafeBytes(of: d.littleEndian) { out += $0 }
            for v in [Float(0.5), 0.25, 1, -1] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
            return out
        }
        func decode(_ o: [UInt8], _ m: [UInt8]?) -> Int32 {
            var p = vt_hconv_params()
            return o.withUnsafeBufferPointer { ob in
                guard let m else { return vt_hconv_decode_options(ob.baseAddress, o.count, nil, 0, &p) }
                return m.withUnsafeBufferPointer { mb in
                    vt_hconv_decode_options(ob.baseAddress, o.count, mb.baseAddress, m.count, &p)
                }
            }
        }
        #expect(decode(options(fromEnd: 8), model) == 0)
        #expect(decode(options(fromEnd: 64), model) == 0)
        #expect(decode(options(fromEnd: 65), model) == -1)  // starts before the model
        #expect(decode(options(fromEnd: 7), model) == -1)  // runs past its end
        #expect(decode(options(fromEnd: 0), model) == -1)
        #expect(decode(options(fromEnd: 8), nil) == -1)  // the model's bytes unknown
        #expect(decode(options(fromEnd: 8, digest: modelDigest(8) ^ 1), model) == -1)  // other bytes there
        #expect(
            decode(options(fromEnd: 16), model) == 0
                && decode(options(fromEnd: 16, digest: modelDigest(8)), model) == -1)
        #expect(decode(options(version: 1, fromEnd: 8), model) == -1)
    }

    @Test("spatial convolution options: a window that does not make K, a bad padding or zero point is refused")
    func spatialOptions() {
        // A filter of K = 2·2·3 = 12 bytes for N = 2 outputs, at the end of the model's bytes.
        let model = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let digest = model.withUnsafeBytes { ModelFile.filterDigest(UnsafeRawBufferPointer(rebasing: $0[40..<64])) }
        // version, K, N, activation, izp, fzp, ozp, kh, kw, cin, sh, sw, dh, dw, padding
        func options(_ edit: (inout [Int32]) -> Void = { _ in }) -> [UInt8] {
            var ints: [Int32] = [Int32(VT_OPTIONS_QK_VERSION), 12, 2, 3, 128, 120, 0, 2, 2, 3, 2, 2, 1, 1, 0]
            edit(&ints)
            var out = Array("VTQK".utf8)
            for v in ints { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            for v in [Float(0.5), 0.25, 0.125] { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
            withUnsafeBytes(of: UInt64(24).littleEndian) { out += $0 }
            withUnsafeBytes(of: digest.littleEndian) { out += $0 }
            // The bias, then the int8 flag (0: a uint8 op, no per-channel scales).
            for v in [Int32(5), -7, 0] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            return out
        }
        func decode(_ o: [UInt8]) -> (status: Int32, window: vt_window) {
            var p = vt_qconv_params()
            var g = vt_window()
            let status = o.withUnsafeBufferPointer { ob in
                model.withUnsafeBufferPointer { mb in
                    vt_qconvk_decode_options(ob.baseAddress, o.count, mb.baseAddress, model.count, &p, &g)
                }
            }
            return (status, g)
        }
        let good = decode(options())
        #expect(good.status == 0)
        #expect(good.window.kernel_h == 2 && good.window.in_channels == 3 && good.window.stride_w == 2)
        #expect(good.window.input_zero_point == 128)
        #expect(decode(options { $0[9] = 4 }).status == -1)  // 2·2·4 ≠ K
        #expect(decode(options { $0[14] = 2 }).status == -1)  // padding neither SAME nor VALID
        #expect(decode(options { $0[4] = 256 }).status == -1)  // input zero point
        #expect(decode(options { $0[10] = 0 }).status == -1)  // stride
        #expect(decode(options { $0[0] = Int32(VT_OPTIONS_QK_VERSION) - 1 }).status == -1)  // version 1 (no int8 tail)
        #expect(decode(Array(options().dropLast(5))).status == -1)  // truncated bias
    }

    @Test("the rewrite's filter digest is the kernel's, for every length")
    func digests() {
        var r = TestRandom(state: 5)
        for n in [0, 1, 7, 8, 9, 15, 16, 17, 1000, 4099] {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: r.next()) }
            let swift = bytes.withUnsafeBytes { ModelFile.filterDigest($0) }
            let c = bytes.withUnsafeBufferPointer { vt_filter_digest($0.baseAddress, n) }
            #expect(swift == c, "\(n) bytes")
        }
        #expect(
            [UInt8]([1, 2, 3]).withUnsafeBytes { ModelFile.filterDigest($0) }
                != [UInt8]([1, 2, 4]).withUnsafeBytes { ModelFile.filterDigest($0) })
    }
}
