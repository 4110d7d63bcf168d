import Imaging
import UIKitCompat

/// One decoded frame of a video: its RGB pixels, its place in the stream and its presentation time.
public struct VideoFrame: Sendable {
    /// 1-based position among the decoded frames.
    public let number: Int
    /// Presentation time in milliseconds, from the container's timestamps.
    public let timestampMs: Int
    /// The pixels (``PixelFormat/rgb8``).
    public let bitmap: Bitmap

    public init(number: Int, timestampMs: Int, bitmap: Bitmap) {
        self.number = number
        self.timestampMs = timestampMs
        self.bitmap = bitmap
    }

    /// The frame as a `UIImage` (orientation `.up`), for `MPImage(uiImage:)` or `VisionImage(image:)`.
    public var image: UIImage { UIImage(bitmap: bitmap) }
}
