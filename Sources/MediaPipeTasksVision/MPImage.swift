import Foundation
import Imaging
import UIKitCompat

/// The picture a vision task takes: pixels plus the orientation they are shown with.
///
/// Made, as on iOS, from a `UIImage`, a `CVPixelBuffer` (BGRA, RGBA or NV12) or a `CMSampleBuffer`;
/// and on Linux also from a file (`MPImage(contentsOfFile:)`) or raw pixels (`MPImage(bitmap:orientation:)`).
/// Results come back in the coordinates of the stored, unrotated pixels.
public final class MPImage: NSObject, Sendable {
    /// The pixels the task reads (BGRA un-premultiplied, video-range NV12 expanded; float buffers
    /// rendered as gray for display only).
    package let bitmap: Bitmap
    /// MediaPipe's `ImageFormat` number for buffers its vision tasks refuse (9, `VEC32F1`, for
    /// one-component float buffers); nil for the formats they take.
    let unsupportedFormat: Int?
    /// How the pixels are turned for display. Mirrored orientations are refused by MediaPipe tasks.
    public let orientation: UIImage.Orientation
    /// What the image was made from.
    public let imageSourceType: MPImageSourceType
    /// The source, for images made from a `UIImage`.
    public let image: UIImage?
    /// The source, for images made from a `CVPixelBuffer` (or the sample buffer's).
    public let pixelBuffer: CVPixelBuffer?
    /// The source, for images made from a `CMSampleBuffer`.
    public let sampleBuffer: CMSampleBuffer?
    /// The picture's own size in stored pixels when ``bitmap`` holds it at a reduced scale
    /// (``init(contentsOfFile:orientation:fastDecodeFor:)``); results are given in this size.
    package let fileSize: (width: Int, height: Int)?

    /// Width: for a `UIImage`, its displayed size × scale (as MediaPipe); otherwise the buffer's width.
    public var width: CGFloat { image.map { $0.size.width * $0.scale } ?? CGFloat(fileSize?.width ?? bitmap.width) }
    /// Height, likewise.
    public var height: CGFloat { image.map { $0.size.height * $0.scale } ?? CGFloat(fileSize?.height ?? bitmap.height) }

    private init(
        bitmap: Bitmap, orientation: UIImage.Orientation, source: MPImageSourceType,
        image: UIImage?, pixelBuffer: CVPixelBuffer?, sampleBuffer: CMSampleBuffer?,
        fileSize: (width: Int, height: Int)? = nil
    ) {
        self.bitmap = bitmap
        self.fileSize = fileSize
        self.orientation = orientation
        self.imageSourceType = source
        self.image = image
        self.pixelBuffer = pixelBuffer
        self.sampleBuffer = sampleBuffer
        unsupportedFormat = pixelBuffer?.isFloat == true ? 9 : nil
    }

    /// An image from a `UIImage`, with the `UIImage`'s own orientation.
    public convenience init(uiImage: UIImage) throws {
        try self.init(uiImage: uiImage, orientation: uiImage.imageOrientation)
    }

    /// An image from a `UIImage`, shown with `orientation` (the `UIImage`'s own is ignored).
    public convenience init(uiImage: UIImage?, orientation: UIImage.Orientation) throws {
        guard let uiImage else { throw TasksError(code: .invalidArgumentError, message: "Image cannot be nil.") }
        self.init(
            bitmap: uiImage.bitmap, orientation: orientation, source: .image, image: uiImage, pixelBuffer: nil,
            sampleBuffer: nil)
    }

    /// An image from a pixel buffer, shown upright.
    public convenience init(pixelBuffer: CVPixelBuffer?) throws {
        try self.init(pixelBuffer: pixelBuffer, orientation: .up)
    }

    /// An image from a pixel buffer (BGRA, RGBA or NV12), shown with `orientation`.
    public convenience init(pixelBuffer: CVPixelBuffer?, orientation: UIImage.Orientation) throws {
        guard let pixelBuffer else {
            throw TasksError(code: .invalidArgumentError, message: "Pixel Buffer cannot be nil.")
        }
        self.init(
            bitmap: try Self.taskPixels(pixelBuffer), orientation: orientation, source: .pixelBuffer, image: nil,
            pixelBuffer: pixelBuffer, sampleBuffer: nil)
    }

    /// An image from a sample buffer's pixel buffer, shown upright.
    public convenience init(sampleBuffer: CMSampleBuffer?) throws {
        try self.init(sampleBuffer: sampleBuffer, orientation: .up)
    }

    /// An image from a sample buffer's pixel buffer, shown with `orientation`.
    public convenience init(sampleBuffer: CMSampleBuffer?, orientation: UIImage.Orientation) throws {
        guard let sampleBuffer, CMSampleBufferIsValid(sampleBuffer) else {
            throw TasksError(
                code: .invalidArgumentError,
                message: "Sample buffer is not valid. Invoking CMSampleBufferIsValid(sampleBuffer) must return true.")
        }
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else {
            throw TasksError(code: .invalidArgumentError, message: "Sample buffer does not contain an image buffer.")
        }
        self.init(
            bitmap: try Self.taskPixels(pixelBuffer), orientation: orientation, source: .sampleBuffer, image: nil,
            pixelBuffer: pixelBuffer, sampleBuffer: sampleBuffer)
    }

    /// Wraps decoded or raw pixels (a Linux entry point).
    package convenience init(
        bitmap: Bitmap, orientation: UIImage.Orientation = .up, fileSize: (width: Int, height: Int)? = nil
    ) {
        self.init(
            bitmap: bitmap, orientation: orientation, source: .image, image: nil, pixelBuffer: nil, sampleBuffer: nil,
            fileSize: fileSize)
    }

    /// Decodes a JPEG or PNG file (a Linux entry point). The EXIF orientation is used unless
    /// `orientation` is given.
    public convenience init(contentsOfFile path: String, orientation: UIImage.Orientation? = nil) throws {
        let decoded = try Self.decodeFile { try ImageDecoder.decode(contentsOfFile: path) }
        self.init(bitmap: decoded.bitmap, orientation: orientation ?? UIImage.Orientation(decoded.orientation))
    }

    /// Decodes a JPEG fast, for a model whose input is `minimumSize` (a Linux extension, inexact):
    /// libjpeg-turbo decodes it at the smallest DCT scale (1/8, 1/4, 1/2) that keeps at least
    /// `minimumSize` pixels, with its own IDCT, upsampling and colour conversion — not MediaPipe's
    /// pixels, so scores move slightly (the Performance article, "What is exact"). ``width``, ``height`` and the tasks'
    /// boxes stay in the file's own pixels. PNGs, CMYK JPEGs and JPEGs not at least twice the size decode exactly, as
    /// ``init(contentsOfFile:orientation:)``.
    public convenience init(
        contentsOfFile path: String, orientation: UIImage.Orientation? = nil, fastDecodeFor minimumSize: CGSize
    ) throws {
        let decoded = try Self.decodeFile {
            try ImageDecoder.decode(
                contentsOfFile: path,
                reducedTo: (Int(minimumSize.width.rounded(.up)), Int(minimumSize.height.rounded(.up))))
        }
        self.init(
            bitmap: decoded.bitmap, orientation: orientation ?? UIImage.Orientation(decoded.orientation),
            source: .image, image: nil, pixelBuffer: nil,
            sampleBuffer: nil, fileSize: decoded.scale == 1 ? nil : (decoded.fileWidth, decoded.fileHeight))
    }

    /// An image from a JPEG or PNG file, its JPEG pixels from `jpegDecoding`'s decoder (an extension:
    /// `.openCV` gives the pixels Ultralytics' `predict` sees, for YOLO results equal to its own).
    public convenience init(
        contentsOfFile path: String, orientation: UIImage.Orientation? = nil, jpegDecoding: JPEGDecoding
    ) throws {
        let decoded = try Self.decodeFile { try ImageDecoder.decode(contentsOfFile: path, jpeg: jpegDecoding.pixels) }
        self.init(
            bitmap: decoded.bitmap, orientation: orientation ?? UIImage.Orientation(decoded.orientation),
            source: .image, image: nil, pixelBuffer: nil,
            sampleBuffer: nil, fileSize: decoded.scale == 1 ? nil : (decoded.fileWidth, decoded.fileHeight))
    }

    /// Decodes JPEG or PNG bytes held in memory (a request's body), a JPEG to `jpegDecoding`'s pixels,
    /// shown with its EXIF orientation; a picture that cannot be decoded is refused with code 3 and the
    /// decoder's reason.
    package convenience init(encoded bytes: [UInt8], jpegDecoding: JPEGDecoding = .mediaPipe) throws {
        let decoded = try Self.decodeFile { try ImageDecoder.decode(bytes, jpeg: jpegDecoding.pixels) }
        self.init(
            bitmap: decoded.bitmap, orientation: UIImage.Orientation(decoded.orientation), source: .image, image: nil,
            pixelBuffer: nil, sampleBuffer: nil,
            fileSize: decoded.scale == 1 ? nil : (decoded.fileWidth, decoded.fileHeight))
    }

    /// A file decode, its errors as MediaPipe's (code 5 for a file it cannot open, 3 otherwise).
    private static func decodeFile(_ decode: () throws -> ImageDecoder.Decoded) throws -> ImageDecoder.Decoded {
        do { return try decode() } catch let e as ImagingError {
            let code: TasksErrorCode = e.code == .fileUnreadable ? .notFoundError : .invalidArgumentError
            throw TasksError(code: code, message: e.message, underlying: e)
        }
    }

    /// Throws MediaPipe's error for pixels its vision tasks cannot take (float buffers: code 3,
    /// "Unsupported format: 9", as MediaPipe 1.2.2 reports a `VEC32F1` image).
    func checkTaskFormat() throws {
        if let format = unsupportedFormat {
            throw TasksError(code: .invalidArgumentError, message: "Unsupported format: \(format)")
        }
    }

    /// The pixels a task reads from a buffer (``CVPixelBuffer/straightBitmap()``).
    static func taskPixels(_ buffer: CVPixelBuffer) throws -> Bitmap {
        do { return try buffer.straightBitmap() } catch let e as ImagingError {
            throw TasksError(code: .invalidArgumentError, message: e.message, underlying: e)
        }
    }
}
