import Foundation
import Imaging

/// A minimal Linux stand-in for Core Graphics' `CGImage`: decoded 8-bit pixels, so that
/// `UIImage(cgImage:)` and `uiImage.cgImage` code compiles and runs.
public final class CGImage: Sendable {
    /// The pixels.
    package let bitmap: Bitmap

    /// Wraps pixels.
    package init(bitmap: Bitmap) { self.bitmap = bitmap }

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }
    /// Bytes from one row to the next.
    public var bytesPerRow: Int { bitmap.bytesPerRow }
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// Bits per pixel of the stored layout (NV12 counts its luma plane).
    public var bitsPerPixel: Int { bitmap.format.bytesPerPixel * 8 }
}
