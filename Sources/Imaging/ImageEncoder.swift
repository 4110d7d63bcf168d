import CJPEG
import CPNG
import Foundation

/// Encodes a ``Bitmap`` as JPEG (libjpeg-turbo) or PNG (libpng).
public enum ImageEncoder {
    /// JPEG bytes at `quality` (1…100).
    public static func jpeg(_ bitmap: Bitmap, quality: Int = 90) throws -> [UInt8] {
        let rgb = bitmap.convertedToRGB()
        guard let handle = tjInitCompress() else { throw ImagingError(.encodingFailed, "libjpeg-turbo could not start an encoder.") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = rgb.pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(rgb.width), Int32(rgb.bytesPerRow), Int32(rgb.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw ImagingError(.encodingFailed, "JPEG encoding failed: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// PNG bytes (RGB, or RGBA for images with alpha).
    public static func png(_ bitmap: Bitmap) throws -> [UInt8] {
        let source: Bitmap = bitmap.format == .rgba8 ? bitmap : bitmap.convertedToRGB()
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format = source.format == .rgba8 ? UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : UInt32(PNG_FORMAT_FLAG_COLOR)
        var size = 0
        let probe = source.pixels.withUnsafeBytes {
            png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(source.bytesPerRow), nil)
        }
        guard probe != 0, size > 0 else { throw ImagingError(.encodingFailed, "PNG encoding failed: \(ImageDecoder.message(of: &image))") }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { dst in
            source.pixels.withUnsafeBytes {
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, Int32(source.bytesPerRow), nil)
            }
        }
        guard ok != 0 else { throw ImagingError(.encodingFailed, "PNG encoding failed: \(ImageDecoder.message(of: &image))") }
        return Array(out.prefix(size))
    }

    /// Writes `bitmap` to `path`, as PNG when the path ends in `.png`, else JPEG.
    public static func write(_ bitmap: Bitmap, to path: String, quality: Int = 90) throws {
        let bytes = path.lowercased().hasSuffix(".png") ? try png(bitmap) : try jpeg(bitmap, quality: quality)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ImagingError(.encodingFailed, "Could not write \(path).")
        }
    }
}
