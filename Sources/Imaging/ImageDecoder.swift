import CPNG
import FileInput
import Foundation
import Locking

/// Decodes JPEG (libjpeg coefficients + stb_image-exact reconstruction, as MediaPipe) and PNG (libpng) into a
/// ``Bitmap``, and reads the EXIF orientation.
package enum ImageDecoder {
    /// A decoded picture and the orientation its EXIF data asks for (`.up` when absent).
    package struct Decoded: Sendable {
        package var bitmap: Bitmap
        package var orientation: ImageOrientation
        /// The file's pixels per stored pixel: 1, or 2, 4, 8 for a JPEG decoded at a reduced DCT scale
        /// (``decode(contentsOfFile:reducedTo:)``); the file's size is about the bitmap's × scale.
        package var scale: Int = 1
        /// The file's own width and height (the bitmap's, unless decoded at a reduced scale).
        package var fileWidth: Int
        package var fileHeight: Int

        package init(
            bitmap: Bitmap, orientation: ImageOrientation, scale: Int = 1, fileWidth: Int? = nil, fileHeight: Int? = nil
        ) {
            self.bitmap = bitmap
            self.orientation = orientation
            self.scale = scale
            self.fileWidth = fileWidth ?? bitmap.width
            self.fileHeight = fileHeight ?? bitmap.height
        }
    }

    private static let currentLimits = Locked(ImageLimits.standard)

    /// The limits every decode applies (``ImageLimits/standard`` unless changed).
    package static var limits: ImageLimits {
        get { currentLimits.withLock { $0 } }
        set { currentLimits.withLock { $0 = newValue } }
    }

    /// Decodes the regular file at `path` (FIFOs, devices and directories are refused without blocking).
    package static func decode(contentsOfFile path: String) throws -> Decoded {
        try decode(contentsOfFile: path, reducedTo: nil)
    }

    /// Decodes the file at `path`; with `minimum`, a JPEG (gray or colour) is decoded fast and inexactly
    /// by libjpeg-turbo itself at the smallest DCT scale (1/8, 1/4, 1/2) that keeps at least
    /// `minimum.width`×`minimum.height` pixels — not MediaPipe's pixels (the Performance article, "What is exact").
    /// PNGs, CMYK/YCCK JPEGs and JPEGs no scale can reduce decode exactly, as ``decode(contentsOfFile:)``.
    package static func decode(
        contentsOfFile path: String, reducedTo minimum: (width: Int, height: Int)?
    ) throws -> Decoded {
        try decode(
            contentsOfFile: path, jpeg: minimum.map { .reduced(width: $0.width, height: $0.height) } ?? .mediaPipe)
    }

    /// Decodes the file at `path`, a JPEG to the pixels of `jpeg`'s decoder (PNGs, and CMYK/YCCK
    /// JPEGs, always decode exactly, as ``decode(contentsOfFile:)``).
    package static func decode(contentsOfFile path: String, jpeg: JPEGPixels) throws -> Decoded {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maxBytes: limits.maxFileBytes)
        } catch let e as FileInputError {
            switch e.code {
            case .notFound, .permissionDenied, .unreadable:
                throw ImagingError(.fileUnreadable, "Unable to open image file at \(path)", underlying: e)
            case .notRegularFile: throw ImagingError(.unsupportedFormat, e.message, underlying: e)
            case .tooLarge: throw ImagingError(.tooLarge, e.message, underlying: e)
            }
        }
        do {
            return try decode(bytes, jpeg: jpeg)
        } catch let e as ImagingError {
            throw ImagingError(e.code, "\(path): \(e.message)", underlying: e.underlying)
        }
    }

    /// Decodes JPEG or PNG bytes, a JPEG to the pixels of `jpeg`'s decoder (PNGs, and CMYK/YCCK JPEGs,
    /// always decode exactly, as ``decode(_:)``).
    package static func decode(_ bytes: [UInt8], jpeg: JPEGPixels) throws -> Decoded {
        switch jpeg {
        case .mediaPipe: break
        case .openCV:
            if let full = try JPEGDecoder.decodeReduced(
                bytes, minimumWidth: Int(Int32.max), minimumHeight: Int(Int32.max), fullSize: true)
            {
                return full
            }
        case let .reduced(width, height):
            if let reduced = try JPEGDecoder.decodeReduced(bytes, minimumWidth: width, minimumHeight: height) {
                return reduced
            }
        }
        return try decode(bytes)
    }

    /// Decodes JPEG or PNG bytes, told apart by their signature. JPEGs decode to RGB8 (gray JPEGs to
    /// Gray8), PNGs to RGBA8 (or RGB8 when they have no alpha).
    package static func decode(_ bytes: [UInt8]) throws -> Decoded {
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
            return Decoded(
                bitmap: try decodeJPEG(bytes), orientation: ImageOrientation(exif: exifOrientation(bytes) ?? 1) ?? .up)
        }
        if bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return Decoded(bitmap: try decodePNG(bytes), orientation: .up)
        }
        throw ImagingError(.unsupportedFormat, "Not a JPEG or PNG image (unrecognized signature).")
    }

    static func decodeJPEG(_ bytes: [UInt8]) throws -> Bitmap {
        try JPEGDecoder.decode(bytes)
    }

    package static func decodePNG(_ bytes: [UInt8], fast: Bool = true) throws -> Bitmap {
        // Common PNGs (8-bit RGB/RGBA, nothing that changes libpng's output): libdeflate and our unfiltering.
        var w: UInt32 = 0, h: UInt32 = 0, channels: Int32 = 0
        if fast, bytes.withUnsafeBufferPointer({ vt_png_fast_info($0.baseAddress, $0.count, &w, &h, &channels) }) == 1 {
            let width = Int(w), height = Int(h), bpp = Int(channels)
            try limits.check(width: width, height: height, "PNG")
            var decoded = false
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * bpp) { buffer, count in
                decoded =
                    bytes.withUnsafeBufferPointer {
                        vt_png_fast_decode($0.baseAddress, $0.count, buffer.baseAddress, buffer.count)
                    } == 0
                count = decoded ? width * height * bpp : 0
            }
            if decoded {
                return try Bitmap(width: width, height: height, format: bpp == 4 ? .rgba8 : .rgb8, pixels: pixels)
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else {
            throw ImagingError(.corruptImage, "Corrupt PNG: \(message(of: &image))")
        }
        defer { png_image_free(&image) }
        let hasAlpha = (image.format & UInt32(PNG_FORMAT_FLAG_ALPHA)) != 0
        image.format = hasAlpha ? UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : UInt32(PNG_FORMAT_FLAG_COLOR)
        let width = Int(image.width), height = Int(image.height)
        try limits.check(width: width, height: height, "PNG")
        let bpp = hasAlpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * bpp)
        let finished = pixels.withUnsafeMutableBytes { dst in
            bytes.withUnsafeBytes { _ in png_image_finish_read(&image, nil, dst.baseAddress, Int32(width * bpp), nil) }
        }
        guard finished != 0 else {
            throw ImagingError(.corruptImage, "Corrupt PNG: \(message(of: &image))")
        }
        return try Bitmap(width: width, height: height, format: hasAlpha ? .rgba8 : .rgb8, pixels: pixels)
    }

    static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let chars = raw.prefix { $0 != 0 }
            return String(decoding: chars, as: UTF8.self)
        }
    }

    /// The EXIF `Orientation` tag (1…8) of a JPEG's APP1 segment, or nil when there is none.
    package static func exifOrientation(_ b: [UInt8]) -> Int? {
        var p = 2
        while p + 4 <= b.count, b[p] == 0xFF {
            let marker = b[p + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan / end: no more metadata
            let length = Int(b[p + 2]) << 8 | Int(b[p + 3])
            guard length >= 2, p + 2 + length <= b.count else { return nil }
            if marker == 0xE1, length >= 16, b[(p + 4)..<(p + 10)].elementsEqual(Array("Exif\0\0".utf8)) {
                return tiffOrientation(Array(b[(p + 10)..<(p + 2 + length)]))
            }
            p += 2 + length
        }
        return nil
    }

    static func tiffOrientation(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        if t[0] == 0x49 && t[1] == 0x49 {
            little = true
        } else if t[0] == 0x4D && t[1] == 0x4D {
            little = false
        } else {
            return nil
        }
        func u16(_ p: Int) -> Int? {
            guard p >= 0, p + 2 <= t.count else { return nil }
            return little ? Int(t[p]) | Int(t[p + 1]) << 8 : Int(t[p]) << 8 | Int(t[p + 1])
        }
        func u32(_ p: Int) -> Int? {
            guard let a = u16(p), let b = u16(p + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 { return u16(entry + 8) }
        }
        return nil
    }
}
