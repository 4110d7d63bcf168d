import Imaging

/// One decoded frame of a video: its RGB pixels, its place in the stream and its presentation time.
/// Hand it to a task as `UIImage(rgbPixels: frame.rgbPixels, width: frame.width, height: frame.height)`.
public struct VideoFrame: Sendable {
    /// 1-based position among the decoded frames.
    public let number: Int
    /// Presentation time in milliseconds, from the container's timestamps.
    public let timestampMs: Int
    /// The pixels (RGB, 8 bits per channel).
    package let bitmap: Bitmap

    package init(number: Int, timestampMs: Int, bitmap: Bitmap) {
        self.number = number
        self.timestampMs = timestampMs
        self.bitmap = bitmap
    }

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }
    /// The pixels, row by row from the top, three bytes (R, G, B) each, `width × height × 3` bytes.
    public var rgbPixels: [UInt8] {
        let packed = bitmap.convertedToRGB()  // the same storage when already packed RGB (no copy)
        let count = packed.width * packed.height * 3
        return packed.pixels.count == count ? packed.pixels : Array(packed.pixels.prefix(count))
    }
}
