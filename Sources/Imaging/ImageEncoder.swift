import CJPEG
import CPNG
import Foundation

/// Encodes a ``Bitmap`` as JPEG (libjpeg) or PNG (libpng).
package enum ImageEncoder {
    /// JPEG bytes at `quality` (1…100).
    package static func jpeg(_ bitmap: Bitmap, quality: Int = 90) throws -> [UInt8] {
        let rgb = bitmap.convertedToRGB()
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = rgb.pixels.withUnsafeBufferPointer { px in
            message.withUnsafeMutableBufferPointer { m in
                vt_jpeg_encode_rgb(
                    px.baseAddress, Int32(rgb.width), Int32(rgb.height), Int32(rgb.bytesPerRow),
                    Int32(min(max(quality, 1), 100)), &output, &size, m.baseAddress, m.count)
            }
        }
        defer { free(output) }
        guard status == 0, let output else {
            throw ImagingError(
                .encodingFailed,
                "JPEG encoding failed: "
                    + "\(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            )
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// PNG bytes (RGB, or RGBA for images with alpha).
    package static func png(_ bitmap: Bitmap) throws -> [UInt8] {
        let source: Bitmap = bitmap.format == .rgba8 ? bitmap : bitmap.convertedToRGB()
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format =
            source.format == .rgba8
            ? UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : UInt32(PNG_FORMAT_FLAG_COLOR)
        var size = 0
        let probe = source.pixels.withUnsafeBytes {
            png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(source.bytesPerRow), nil)
        }
        guard probe != 0, size > 0 else {
            throw ImagingError(.encodingFailed, "PNG encoding failed: \(ImageDecoder.message(of: &image))")
        }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { dst in
            source.pixels.withUnsafeBytes {
                png_image_write_to_memory(
                    &image, dst.baseAddress, &size, 0, $0.baseAddress, Int32(source.bytesPerRow), nil)
            }
        }
        guard ok != 0 else {
            throw ImagingError(.encodingFailed, "PNG encoding failed: \(ImageDecoder.message(of: &image))")
        }
        return Array(out.prefix(size))
    }

    /// Writes `bitmap` to `path`, as PNG when the path ends in `.png`, else JPEG.
    package static func write(_ bitmap: Bitmap, to path: String, quality: Int = 90) throws {
        let bytes = path.lowercased().hasSuffix(".png") ? try png(bitmap) : try jpeg(bitmap, quality: quality)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ImagingError(.encodingFailed, "Could not write \(path).")
        }
    }
}
