import Foundation

/// Bounds a picture must respect before any buffer is sized from its header.
package struct ImageLimits: Sendable, Equatable {
    /// Most pixels (width × height; default 100 million).
    package var maxPixels: Int
    /// Longest side in pixels (default 32768).
    package var maxSide: Int
    /// Largest file read (default 512 MiB).
    package var maxFileBytes: Int
    /// Most memory libjpeg may use for one picture (default 1 GiB).
    package var maxDecoderMemory: Int

    /// Limits with the given bounds.
    package init(
        maxPixels: Int = 100_000_000, maxSide: Int = 32768, maxFileBytes: Int = 512 << 20,
        maxDecoderMemory: Int = 1 << 30
    ) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxFileBytes = maxFileBytes
        self.maxDecoderMemory = maxDecoderMemory
    }

    /// The defaults.
    package static let standard = ImageLimits()

    /// Throws when a `width`×`height` picture is outside these limits.
    func check(width: Int, height: Int, _ kind: String) throws {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw ImagingError(
                .tooLarge,
                "\(kind) of \(width)x\(height) pixels exceeds the limits (\(maxSide) a side, \(maxPixels) pixels).")
        }
    }
}
