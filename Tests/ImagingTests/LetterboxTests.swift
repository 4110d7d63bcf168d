import FileInput
import Foundation
import Imaging
import Testing
import VisionTestSupport

/// Ultralytics' letterbox and OpenCV's JPEG pixels, bit for bit, against
/// Tests/Goldens/ultralytics_letterbox.json (scripts/yolo/letterbox_goldens.py: Ultralytics 8.4.190's
/// `LetterBox` on synthetic pictures — shrinking, growing, same size, thin, gray, RGBA — and
/// `cv2.imread` on the shared JPEGs).
@Suite("Letterbox and OpenCV's JPEG pixels")
struct LetterboxTests {
    /// The generator's picture: value = (x·7 + y·13 + c·29 + x·y) mod 256 per channel.
    static func picture(width: Int, height: Int, channels: Int) throws -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { pixels.append(UInt8((x * 7 + y * 13 + c * 29 + x * y) % 256)) }
            }
        }
        let format: PixelFormat = channels == 1 ? .gray8 : channels == 4 ? .rgba8 : .rgb8
        return try Bitmap(width: width, height: height, format: format, pixels: pixels)
    }

    static func cases() throws -> [[String: Any]] {
        try #require(try Goldens.dictionary("ultralytics_letterbox.json")["cases"] as? [[String: Any]])
    }

    @Test("the padded RGB bytes and the geometry equal Ultralytics' LetterBox (cv2 INTER_LINEAR) in ten cases")
    func bytes() throws {
        let cases = try Self.cases()
        #expect(cases.count == 10)
        for c in cases {
            let w = c["width"] as? Int ?? 0, h = c["height"] as? Int ?? 0, tw = c["tensorWidth"] as? Int ?? 0,
                th = c["tensorHeight"] as? Int ?? 0
            let bitmap = try Self.picture(width: w, height: h, channels: c["channels"] as? Int ?? 3)
            let box = Letterbox(sourceWidth: w, sourceHeight: h, width: tw, height: th)
            #expect(
                [box.resizedWidth, box.resizedHeight] == c["resized"] as? [Int] && box.left == c["left"] as? Int
                    && box.top == c["top"] as? Int, "\(c)")
            let format = TensorFormat(width: tw, height: th, element: .uint8, fit: .letterbox(padding: 114))
            let tensor = try ImagePreprocessor().bytes(bitmap, format: format)
            #expect(Array(tensor.prefix(48)) == (c["first"] as? [Int])?.map(UInt8.init), "\(w)x\(h) → \(tw)x\(th)")
            #expect(try SHA256.hex(tensor) == c["sha256"] as? String, "\(w)x\(h)x\(c["channels"] ?? 0) → \(tw)x\(th)")
        }
    }

    @Test("planar, float (v / 255), quantized (Ultralytics' truncation) and oriented tensors are the same pixels")
    func layouts() throws {
        let bitmap = try Self.picture(width: 37, height: 23, channels: 3)
        let p = ImagePreprocessor()
        let rgb = try p.bytes(
            bitmap, format: TensorFormat(width: 64, height: 48, element: .uint8, fit: .letterbox(padding: 114)))
        let planar = try p.floats(
            bitmap,
            format: TensorFormat(
                width: 64, height: 48, element: .float32(mean: [0], std: [255]), fit: .letterbox(padding: 114),
                layout: .planar))
        let plane = 64 * 48
        for i in stride(from: 0, to: plane, by: 97) {
            for c in 0..<3 { #expect(planar[c * plane + i] == Float(rgb[i * 3 + c]) / 255) }
        }
        let q = try p.bytes(
            bitmap,
            format: TensorFormat(
                width: 64, height: 48, element: .quantized(scale: 0.003908383, zeroPoint: -128, signed: true),
                fit: .letterbox(padding: 114)))
        for i in stride(from: 0, to: q.count, by: 53) {
            let expected = Int8(max(min((Float(rgb[i]) / 255) / 0.003908383 + -128, 127), -128).rounded(.towardZero))
            #expect(Int8(bitPattern: q[i]) == expected)
        }
        // Shown turned a quarter (EXIF 6): the letterbox of the upright picture.
        let turned = try p.bytes(
            bitmap, orientation: .right,
            format: TensorFormat(width: 64, height: 48, element: .uint8, fit: .letterbox(padding: 114)))
        let uprightFirst = try p.bytes(
            bitmap.upright(.right),
            format: TensorFormat(width: 64, height: 48, element: .uint8, fit: .letterbox(padding: 114)))
        #expect(turned == uprightFirst)
        #expect(throws: ImagingError.self) {
            try p.bytes(
                bitmap, region: NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5),
                format: TensorFormat(width: 8, height: 8, element: .uint8, fit: .letterbox(padding: 114)))
        }
        #expect(throws: ImagingError.self) {
            try p.bytes(bitmap, format: TensorFormat(width: 8, height: 8, element: .uint8, layout: .planar))
        }
    }

    @Test("NV12 frames letterbox through the reused RGB scratch: each call its own frame's colour")
    func nv12() throws {
        let p = ImagePreprocessor()
        let format = TensorFormat(width: 32, height: 32, element: .uint8, fit: .letterbox(padding: 114))
        var previous: [UInt8] = []
        for luma in [UInt8(60), UInt8(180)] {
            // A gray frame: Y = luma, neutral chroma.
            let pixels = [UInt8](repeating: luma, count: 64 * 32) + [UInt8](repeating: 128, count: 64 * 16)
            let frame = try Bitmap(width: 64, height: 32, format: .nv12, pixels: pixels)
            let tensor = try p.bytes(frame, format: format)
            let inside = Array(tensor[(16 * 32 + 16) * 3..<(16 * 32 + 16) * 3 + 3])
            let expected = try p.bytes(
                try Bitmap(width: 64, height: 32, format: .rgb8, fill: (inside[0], inside[0], inside[0])),
                format: format)
            #expect(
                Array(tensor.prefix(3)) == [114, 114, 114] && inside != previous
                    && inside.allSatisfy { abs(Int($0) - Int(luma)) <= 12 })
            #expect(tensor == expected, "\(inside) for luma \(luma)")
            previous = inside
        }
    }

    @Test("JPEGDecoding.openCV gives cv2.imread's pixels on every shared JPEG", .enabled(if: TestAssets.shouldRun))
    func openCVPixels() throws {
        let expected = try #require(
            try Goldens.dictionary("ultralytics_letterbox.json")["opencvJPEG"] as? [String: String])
        #expect(expected.count >= 5)
        for (name, hash) in expected {
            let decoded = try ImageDecoder.decode(contentsOfFile: TestAssets.image(name), jpeg: .openCV)
            #expect(decoded.bitmap.format == .rgb8 && decoded.scale == 1)
            #expect(try SHA256.hex(decoded.bitmap.pixels) == hash, "\(name)")
            // MediaPipe's decoder differs in its last bits: that is why the choice exists.
            #expect(
                try SHA256.hex(try ImageDecoder.decode(contentsOfFile: TestAssets.image(name)).bitmap.pixels) != hash,
                "\(name)")
        }
    }
}
