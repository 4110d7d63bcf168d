import CKernelFormats
import CKernels
import FileInput
import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// The custom ops' options formats, declared once (KernelFormats.h): what the Swift rewrites write, the
/// C kernels read back — every format on the models that use it, each refused under another version.
@Suite("custom-op options formats", .enabled(if: TestAssets.shouldRun))
struct KernelFormatTests {
    /// Every kernel, fusions included (on CPUs where the fused op is exact).
    static let all = KernelChoice(
        hybridDepthwise: true, conv1x1: true, hybridConv: true, fusions: true, depthwise: true, postProcess: true,
        requantize: true)

    /// The options of each custom op `model`'s rewrite makes, and the rewritten model's bytes.
    static func rewrite(_ model: String) throws -> (options: [[UInt8]], model: [UInt8]) {
        let file = try ModelFile(contentsOfFile: TestAssets.model(model))
        let made = try #require(try file.customKernelOps(all.customKernels(optimizeHybridModels: false)))
        let bytes = file.rewritten(head: made.head)
        let rewritten = try ModelFile(data: bytes)
        let custom = Set(rewritten.operatorCodes.indices.filter { rewritten.operatorCodes[$0].builtinCode == 32 })
        let options = try #require(rewritten.subgraphs.first).operators.filter { custom.contains($0.opcodeIndex) }
            .compactMap(\.customOptions)
        return (options, Array(bytes.buffer))
    }

    static func magic(_ options: [UInt8]) -> String { String(decoding: options.prefix(4), as: UTF8.self) }
    static func int32(_ options: [UInt8], at offset: Int) -> Int32 {
        options[offset..<offset + 4].enumerated().reduce(Int32(0)) { $0 | Int32($1.element) << (8 * $1.offset) }
    }
    /// `options` with its version (the int32 after the magic) replaced.
    static func versioned(_ options: [UInt8], _ version: Int32) -> [UInt8] {
        var o = options
        withUnsafeBytes(of: version.littleEndian) { o.replaceSubrange(4..<8, with: $0) }
        return o
    }

    /// Whether the C side reads `options` (of any format; a link prefix, a group's members and a fused
    /// op's convolution through their own readers).
    static func reads(_ options: [UInt8], model: [UInt8]) -> Bool {
        options.withUnsafeBufferPointer { o in
            model.withUnsafeBufferPointer { m in
                let data = o.baseAddress, size = o.count, bytes = m.baseAddress, count = m.count
                switch magic(options) {
                case VT_OPTIONS_QC_MAGIC:
                    var p = vt_qconv_params()
                    return vt_qconv_decode_options(data, size, bytes, count, &p) == 0
                case VT_OPTIONS_QK_MAGIC:
                    var p = vt_qconv_params()
                    var g = vt_window()
                    return vt_qconvk_decode_options(data, size, bytes, count, &p, &g) == 0
                case VT_OPTIONS_HC_MAGIC:
                    var p = vt_hconv_params()
                    return vt_hconv_decode_options(data, size, bytes, count, &p) == 0
                case VT_OPTIONS_HD_MAGIC:
                    var p = vt_hdw_params()
                    return vt_hdw_decode_options(data, size, &p) == 0
                case VT_OPTIONS_QD_MAGIC:
                    var p = vt_qdw_params()
                    return vt_qdw_decode_options(data, size, &p) == 0
                case VT_OPTIONS_DP_MAGIC:
                    var p = vt_dpp_params()
                    return vt_dpp_decode_options(data, size, &p) == 0
                case VT_OPTIONS_RQ_MAGIC:
                    var p = vt_requant8_params()
                    return vt_requant8_decode_options(data, size, &p) == 0
                case VT_OPTIONS_CD_MAGIC:
                    guard let op = vt_cdw_create_from_options(data, size, bytes, count) else { return false }
                    vt_cdw_free(op)
                    return true
                case VT_OPTIONS_LK_MAGIC:
                    let role = int32(options, at: 8), slot = int32(options, at: 12)
                    return int32(options, at: 4) == VT_OPTIONS_LK_VERSION && (role == 1 || role == 2) && slot >= 0
                        && reads(Array(options.dropFirst(16)), model: model)
                case VT_OPTIONS_CG_MAGIC:
                    guard int32(options, at: 4) == VT_OPTIONS_CG_VERSION else { return false }
                    let count = int32(options, at: 8)
                    var at = 16
                    for _ in 0..<count {
                        guard at + 4 <= options.count else { return false }
                        let bytes = Int(int32(options, at: at))
                        at += 4
                        guard bytes > 0, at + bytes <= options.count,
                            magic(Array(options[at...])) == VT_OPTIONS_HC_MAGIC,
                            reads(Array(options[at..<at + bytes]), model: model)
                        else { return false }
                        at += (bytes + 3) / 4 * 4
                    }
                    return count >= 1 && at == options.count
                default:
                    return false
                }
            }
        }
    }

    @Test(
        "each format written by the rewrites is read by the kernels, and refused under another version",
        arguments: [
            (
                "ssd_mobilenet_v1_coco_quant_metadata.tflite",
                [VT_OPTIONS_QC_MAGIC, VT_OPTIONS_QK_MAGIC, VT_OPTIONS_QD_MAGIC, VT_OPTIONS_DP_MAGIC]
            ),
            (
                "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
                [VT_OPTIONS_HD_MAGIC, VT_OPTIONS_LK_MAGIC, VT_OPTIONS_CG_MAGIC]
            ),
            ("tf2_mobilenet_v2_1.0_224_ptq.tflite", [VT_OPTIONS_QC_MAGIC, VT_OPTIONS_QD_MAGIC, VT_OPTIONS_RQ_MAGIC]),
        ])
    func roundTrip(model: String, expected: [String]) throws {
        let (options, bytes) = try Self.rewrite(model)
        let magics = Set(options.map(Self.magic))
        #expect(magics.isSuperset(of: expected), "\(model): \(magics.sorted())")
        for o in options {
            let magic = Self.magic(o)
            #expect(Self.reads(o, model: bytes), "\(model): \(magic) options not read")
            // A link prefix carries its own version; the node's options after it are checked above.
            let version = Self.int32(o, at: 4)
            #expect(
                !Self.reads(Self.versioned(o, version + 16), model: bytes), "\(model): \(magic) read at any version")
        }
    }

    @Test("the fused 1×1-into-depthwise op's format, where the CPU makes it exact")
    func fusedOp() throws {
        guard CompiledModel.convDepthwiseFusionExact else { return }
        let (options, bytes) = try Self.rewrite("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite")
        let fused = options.filter { Self.magic($0) == VT_OPTIONS_CD_MAGIC }
        #expect(!fused.isEmpty)
        for o in fused {
            #expect(Self.reads(o, model: bytes))
            #expect(!Self.reads(Self.versioned(o, Int32(VT_OPTIONS_CD_VERSION) + 1), model: bytes))
        }
    }
}
