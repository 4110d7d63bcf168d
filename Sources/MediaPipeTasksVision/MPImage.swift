import Foundation
import Imaging

/// The picture a vision task takes: pixels plus the orientation they are shown with.
///
/// On Linux it is made from a file (`MPImage(contentsOfFile:)`), from raw pixels
/// (`MPImage(bitmap:orientation:)`), or from the UIKit-style stand-ins.
public final class MPImage: @unchecked Sendable {
    /// The pixels.
    public let bitmap: Bitmap
    /// How the pixels are turned for display. Mirrored orientations are refused by MediaPipe tasks.
    public let imageOrientation: ImageOrientation

    /// Width of the stored pixels.
    public var width: CGFloat { CGFloat(bitmap.width) }
    /// Height of the stored pixels.
    public var height: CGFloat { CGFloat(bitmap.height) }

    /// Wraps decoded or raw pixels.
    public init(bitmap: Bitmap, orientation: ImageOrientation = .up) {
        self.bitmap = bitmap
        self.imageOrientation = orientation
    }

    /// Decodes a JPEG or PNG file. The EXIF orientation is used unless `orientation` is given.
    public convenience init(contentsOfFile path: String, orientation: ImageOrientation? = nil) throws {
        do {
            let decoded = try ImageDecoder.decode(contentsOfFile: path)
            self.init(bitmap: decoded.bitmap, orientation: orientation ?? decoded.orientation)
        } catch let e as ImagingError {
            let code: TasksErrorCode = e.code == .fileUnreadable ? .notFoundError : .invalidArgumentError
            throw TasksError(code: code, message: e.message)
        }
    }
}
