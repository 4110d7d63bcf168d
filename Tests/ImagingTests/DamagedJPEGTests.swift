import FileInput
import Foundation
import Imaging
import Testing
import VisionTestSupport

/// Damaged and unusual JPEGs decode as MediaPipe 1.2.2 (stb_image) decodes them, or are refused
/// where it refuses them (Tests/Goldens/mediapipe_jpeg_damaged.json, made by
/// scripts/goldens/jpeg_damaged_fixtures.py).
@Suite("Damaged and unusual JPEGs")
struct DamagedJPEGTests {
    nonisolated(unsafe) static let golden: [String: Any] =
        (try? Goldens.dictionary("mediapipe_jpeg_damaged.json")) ?? [:]
    static let fixtures = golden.keys.filter { !$0.contains("@") }.sorted()

    /// Packed pixels of a decode, row by row.
    static func packed(_ b: Bitmap) -> [UInt8] {
        var pixels = [UInt8]()
        for y in 0..<b.height {
            let row = y * b.bytesPerRow
            pixels += b.pixels[row..<(row + b.width * b.format.bytesPerPixel)]
        }
        return pixels
    }

    /// Cut files where MediaPipe's pixels past the cut are never written by its decoder (stb_image
    /// ends the scan at the first missing restart marker, and progressive scans are left out): we
    /// decode them deterministically, with the same size; the Compatibility article lists them.
    static let undefinedInMediaPipe: Set<String> = ["progressive_cut_60.jpg", "dog.jpg@81879"]

    /// Our decode of `bytes` against MediaPipe's verdict for `name`.
    static func check(_ bytes: [UInt8], _ name: String) throws {
        let expected = try #require(golden[name] as? [String: Any], "no golden for \(name)")
        let refused = expected["refused"] as? Bool ?? false
        do {
            let decoded = try ImageDecoder.decode(bytes).bitmap
            #expect(!refused, "\(name): MediaPipe refuses it, we decoded it")
            #expect(
                [decoded.height, decoded.width, decoded.format.bytesPerPixel] == expected["shape"] as? [Int], "\(name)")
            if !undefinedInMediaPipe.contains(name) {
                #expect(
                    try SHA256.hex(packed(decoded)) == expected["sha256"] as? String,
                    "\(name): pixels differ from MediaPipe's")
            }
        } catch let e as ImagingError {
            #expect(refused, "\(name): MediaPipe decodes it, we refused it: \(e.message)")
        }
    }

    @Test("each fixture as MediaPipe decodes it", arguments: fixtures)
    func fixture(_ name: String) throws {
        let path = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/jpeg-damaged").appendingPathComponent(
            name
        ).path
        try Self.check(try TestAssets.bytes(path), name)
    }

    @Test("dog.jpg cut short: refused or decoded as MediaPipe", .enabled(if: TestAssets.shouldRun))
    func cuts() throws {
        let bytes = try TestAssets.bytes(TestAssets.image("dog.jpg"))
        let keys = Self.golden.keys.filter { $0.hasPrefix("dog.jpg@") }
        #expect(keys.count == 4)
        for key in keys {
            let cut = try #require(Int(key.dropFirst("dog.jpg@".count)))
            try Self.check(Array(bytes.prefix(cut)), key)
        }
    }

    @Test("a header declaring 65000×65000 pixels is refused before any decoding, in a few bytes")
    func hugeHeader() throws {
        let path = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/jpeg/gray.jpg").path
        var bytes = try TestAssets.bytes(path)
        let sof = try #require(
            bytes.indices.first { i in
                i + 1 < bytes.count && bytes[i] == 0xFF && (bytes[i + 1] == 0xC0 || bytes[i + 1] == 0xC2)
            })
        bytes[sof + 5] = 0xFD; bytes[sof + 6] = 0xE8  // height 65000
        bytes[sof + 7] = 0xFD; bytes[sof + 8] = 0xE8  // width 65000
        let before = ProcessMemory.residentBytes()
        do {
            _ = try ImageDecoder.decode(bytes)
            Issue.record("decoded")
        } catch let e as ImagingError {
            #expect(e.code == .tooLarge)
            #expect(e.message.contains("65000x65000"))
        }
        // The whole process's memory, which suites running beside this one also move (by up to ~100 MB):
        // decoding the declared picture would take 65000×65000 = 3.9 GiB, far over this bound.
        #expect(ProcessMemory.residentBytes() - before < 1 << 30)
    }
}
