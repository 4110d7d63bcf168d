import Foundation
import Imaging
import Testing
import VisionTestSupport

@Suite("Decoding and encoding pictures")
struct DecodingTests {
    @Test(
        "every shared photo decodes to exactly MediaPipe's pixels", .enabled(if: TestAssets.shouldRun),
        arguments: TestAssets.photoNames)
    func matchesMediaPipe(name: String) throws {
        let golden = try #require(try Goldens.dictionary("mediapipe_images.json")[name] as? [String: Any])
        let decoded = try ImageDecoder.decode(contentsOfFile: TestAssets.image(name)).bitmap
        let shape = try #require(golden["shape"] as? [Int])
        #expect([decoded.height, decoded.width] == Array(shape.prefix(2)))
        // MediaPipe keeps PNG alpha only when the file has it; compare the channels it has.
        let channels = shape.count > 2 ? shape[2] : 1
        var pixels = [UInt8]()
        pixels.reserveCapacity(decoded.width * decoded.height * channels)
        for y in 0..<decoded.height {
            for x in 0..<decoded.width {
                let p = y * decoded.bytesPerRow + x * decoded.format.bytesPerPixel
                for c in 0..<channels { pixels.append(decoded.pixels[p + c]) }
            }
        }
        #expect(try SHA256.hex(pixels) == golden["sha256"] as? String, "\(name)")
    }

    @Test(
        "4:2:2, 4:2:0, 4:4:4, progressive and gray JPEGs of odd size decode exactly as MediaPipe's",
        arguments: ["h2v1_422.jpg", "h2v2_420.jpg", "h1v1_444.jpg", "progressive_420.jpg", "gray.jpg"])
    func variants(name: String) throws {
        let golden = try #require(try Goldens.dictionary("mediapipe_jpeg_variants.json")[name] as? [String: Any])
        let path = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/jpeg").appendingPathComponent(name)
            .path
        let decoded = try ImageDecoder.decode(contentsOfFile: path).bitmap
        #expect([decoded.height, decoded.width, decoded.format.bytesPerPixel] == golden["shape"] as? [Int])
        var pixels = [UInt8]()
        for y in 0..<decoded.height {
            let row = y * decoded.bytesPerRow
            pixels += decoded.pixels[row..<(row + decoded.width * decoded.format.bytesPerPixel)]
        }
        #expect(try SHA256.hex(pixels) == golden["sha256"] as? String)
    }

    @Test("reads the EXIF orientation of a JPEG")
    func exifOrientation() throws {
        let bitmap = try Bitmap(width: 16, height: 8, format: .rgb8, fill: (200, 10, 10))
        let jpeg = try ImageEncoder.jpeg(bitmap)
        for exif in 1...8 {
            // APP1 "Exif\0\0" + little-endian TIFF with one IFD entry: Orientation (0x0112) SHORT = exif.
            let tiff: [UInt8] = [
                0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
                0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(exif), 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00,
            ]
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xff)] + payload
            let withExif = Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
            let decoded = try ImageDecoder.decode(withExif)
            #expect(decoded.orientation == ImageOrientation(exif: exif))
            #expect(decoded.bitmap.width == 16)
        }
        #expect(try ImageDecoder.decode(jpeg).orientation == .up)
    }

    @Test("a JPEG cut inside its headers is a typed error", .enabled(if: TestAssets.shouldRun))
    func corruptJPEG() throws {
        let bytes = try TestAssets.bytes(TestAssets.image("dog.jpg"))
        for cut in [10, 200, 2000] {
            do {
                _ = try ImageDecoder.decode(Array(bytes.prefix(cut)))
                Issue.record("a JPEG cut at \(cut) bytes decoded")
            } catch let e as ImagingError {
                #expect(e.code == .corruptImage, "\(e)")
                #expect(e.message.hasPrefix("Corrupt JPEG"))
            }
        }
        var garbage = bytes
        for i in stride(from: 700, to: 5000, by: 7) { garbage[i] = 0xFF }
        #expect(throws: ImagingError.self) { try ImageDecoder.decode(garbage) }
    }

    @Test("a truncated or corrupt PNG is a typed error", .enabled(if: TestAssets.shouldRun))
    func corruptPNG() throws {
        let bytes = try TestAssets.bytes(TestAssets.image("bird.png"))
        for cut in [12, 40, bytes.count / 2] {
            do {
                _ = try ImageDecoder.decode(Array(bytes.prefix(cut)))
                Issue.record("a PNG cut at \(cut) bytes decoded")
            } catch let e as ImagingError {
                #expect(e.code == .corruptImage, "\(e)")
                #expect(e.message.hasPrefix("Corrupt PNG"))
            }
        }
        var broken = bytes
        for i in 100..<400 { broken[i] ^= 0x5A }
        #expect(throws: ImagingError.self) { try ImageDecoder.decode(broken) }
    }

    @Test("unknown formats and missing files are typed errors")
    func unknownFormat() throws {
        do {
            _ = try ImageDecoder.decode(Array("GIF89a....".utf8))
            Issue.record("decoded a GIF header")
        } catch let e as ImagingError {
            #expect(e.code == .unsupportedFormat)
        }
        do {
            _ = try ImageDecoder.decode(contentsOfFile: "/nonexistent/photo.jpg")
            Issue.record("decoded a missing file")
        } catch let e as ImagingError {
            #expect(e.code == .fileUnreadable)
            #expect(e.message == "Unable to open image file at /nonexistent/photo.jpg")
        }
    }

    @Test("PNG encoding round-trips exactly; JPEG encoding round-trips closely")
    func encodeRoundTrip() throws {
        var pixels = [UInt8](repeating: 0, count: 40 * 30 * 3)
        for i in 0..<pixels.count { pixels[i] = UInt8((i * 7) % 256) }
        let bitmap = try Bitmap(width: 40, height: 30, format: .rgb8, pixels: pixels)
        let png = try ImageDecoder.decode(try ImageEncoder.png(bitmap)).bitmap
        #expect(png.pixels == pixels)
        let smooth = try Bitmap(width: 40, height: 30, format: .rgb8, fill: (90, 160, 30))
        let jpeg = try ImageDecoder.decode(try ImageEncoder.jpeg(smooth, quality: 95)).bitmap
        #expect(jpeg.width == 40 && jpeg.height == 30)
        #expect(zip(jpeg.pixels, smooth.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 3 })
    }

    @Test("pixel buffers are validated")
    func validation() {
        #expect(throws: ImagingError.self) { try Bitmap(width: 0, height: 1, format: .rgb8, pixels: []) }
        #expect(throws: ImagingError.self) {
            try Bitmap(width: 2, height: 2, format: .rgba8, pixels: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: ImagingError.self) {
            try Bitmap(width: 2, height: 2, format: .rgb8, pixels: [UInt8](repeating: 0, count: 12), bytesPerRow: 5)
        }
        #expect(throws: ImagingError.self) {
            try Bitmap(width: 3, height: 2, format: .nv12, pixels: [UInt8](repeating: 0, count: 100))
        }
        #expect(throws: ImagingError.self) {
            try Bitmap(width: 4, height: 2, format: .nv12, pixels: [UInt8](repeating: 0, count: 11))
        }
        #expect((try? Bitmap(width: 4, height: 2, format: .nv12, pixels: [UInt8](repeating: 0, count: 12))) != nil)
    }
}
