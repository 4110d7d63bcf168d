import CZlib
import Foundation
import Imaging
import Testing
import VisionTestSupport

/// The PNG fast path (libdeflate, our unfiltering) against libpng: PNGs built here row by row with
/// every filter type (None, Sub, Up, Average, Paeth), RGB and RGBA, odd sizes, several IDAT chunks —
/// the same pixels as libpng's and as the ones encoded; files it must leave to libpng (gamma,
/// transparency, 16-bit, interlaced, a bad CRC) decode as libpng decodes them.
@Suite("PNG fast path")
struct PNGFastPathTests {
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return be32(UInt32(data.count)) + body + be32(crc)
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)]
    }

    /// A PNG of `pixels` (width × height × channels), each row filtered with `filters[y % count]`.
    static func png(
        width: Int, height: Int, channels: Int, pixels: [UInt8], filters: [UInt8], extra: [[UInt8]] = [],
        idatParts: Int = 1
    )
        -> [UInt8]
    {
        let rowBytes = width * channels
        var raw: [UInt8] = []
        for y in 0..<height {
            let f = filters[y % filters.count]
            raw.append(f)
            for i in 0..<rowBytes {
                let x = Int(pixels[y * rowBytes + i])
                let a = i >= channels ? Int(pixels[y * rowBytes + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
                let c = y > 0 && i >= channels ? Int(pixels[(y - 1) * rowBytes + i - channels]) : 0
                let predictor: Int
                switch f {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) >> 1
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predictor = 0
                }
                raw.append(UInt8((x - predictor) & 255))
            }
        }
        var size = compressBound(UInt(raw.count))
        var z = [UInt8](repeating: 0, count: Int(size))
        _ = compress2(&z, &size, raw, UInt(raw.count), 6)
        z = Array(z.prefix(Int(size)))
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        for e in extra { file += e }
        let part = (z.count + idatParts - 1) / idatParts
        for start in stride(from: 0, to: z.count, by: max(1, part)) {
            file += chunk("IDAT", Array(z[start..<min(z.count, start + part)]))
        }
        return file + chunk("IEND", [])
    }

    @Test(
        "every filter, RGB and RGBA, odd sizes, split IDATs: the fast path gives libpng's pixels and the encoded ones")
    func filters() throws {
        var random = TestRandom(state: 0x9A6E_2026)
        for (width, height, channels) in [(1, 1, 3), (7, 5, 3), (33, 17, 4), (128, 64, 3), (5, 40, 4)] {
            let pixels = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0]] {
                let file = Self.png(
                    width: width, height: height, channels: channels, pixels: pixels, filters: filters,
                    idatParts: filters.count > 1 ? 3 : 1)
                let fast = try ImageDecoder.decodePNG(file), libpng = try ImageDecoder.decodePNG(file, fast: false)
                #expect(
                    fast.pixels == libpng.pixels && fast.pixels == pixels,
                    "\(width)x\(height)x\(channels) filters \(filters)")
                #expect(fast.format == (channels == 4 ? .rgba8 : .rgb8))
            }
        }
    }

    @Test("gamma, transparency and a bad CRC are left to libpng, which decides as before")
    func leftToLibpng() throws {
        let pixels = (0..<(8 * 4 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let gamma = Self.png(
            width: 8, height: 4, channels: 3, pixels: pixels, filters: [4],
            extra: [Self.chunk("gAMA", Self.be32(100_000))])
        #expect(try ImageDecoder.decodePNG(gamma).pixels == ImageDecoder.decodePNG(gamma, fast: false).pixels)
        let trns = Self.png(
            width: 8, height: 4, channels: 3, pixels: pixels, filters: [1],
            extra: [Self.chunk("tRNS", [0, 7, 0, 14, 0, 21])])
        #expect(try ImageDecoder.decodePNG(trns).format == ImageDecoder.decodePNG(trns, fast: false).format)
        var bad = Self.png(width: 8, height: 4, channels: 3, pixels: pixels, filters: [2])
        bad[bad.count - 20] ^= 0xFF  // inside the IDAT chunk: its CRC no longer matches
        #expect(throws: ImagingError.self) { try ImageDecoder.decodePNG(bad, fast: false) }
        #expect(throws: ImagingError.self) { try ImageDecoder.decodePNG(bad) }
    }
}
