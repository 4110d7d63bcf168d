extension Bitmap {
    /// The pixels as they are shown with `orientation` (EXIF's eight transforms: flips, rotations,
    /// transpose and transverse), stored upright. Packed formats only (RGB8, RGBA8, BGRA8, Gray8);
    /// NV12 is returned unchanged.
    package func upright(_ orientation: ImageOrientation) -> Bitmap {
        guard orientation != .up, format != .nv12 else { return self }
        let bpp = format.bytesPerPixel
        let swaps = orientation.swapsDimensions
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * bpp)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The stored pixel shown at (x, y), for each EXIF orientation.
                let (sx, sy): (Int, Int)
                switch orientation {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (width - 1 - x, y)
                case .down: (sx, sy) = (width - 1 - x, height - 1 - y)
                case .downMirrored: (sx, sy) = (x, height - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)  // EXIF 5: transpose
                case .right: (sx, sy) = (y, height - 1 - x)  // EXIF 6: 90° clockwise
                case .rightMirrored: (sx, sy) = (width - 1 - y, height - 1 - x)  // EXIF 7: transverse
                case .left: (sx, sy) = (width - 1 - y, x)  // EXIF 8: 90° counterclockwise
                }
                let s = sy * bytesPerRow + sx * bpp, d = (y * outWidth + x) * bpp
                for c in 0..<bpp { out[d + c] = pixels[s + c] }
            }
        }
        return (try? Bitmap(width: outWidth, height: outHeight, format: format, pixels: out)) ?? self
    }
}
