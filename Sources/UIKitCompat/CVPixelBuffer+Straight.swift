import Imaging

extension CVPixelBuffer {
    /// The pixels as vision models read them: BGRA/RGBA with alpha un-premultiplied (as MediaPipe
    /// does), video-range NV12 expanded to full range, other layouts as stored.
    package func straightBitmap() throws -> Bitmap {
        var b = try bitmap
        switch b.format {
        case .bgra8, .rgba8:
            var needs = false
            for y in 0..<b.height where !needs {
                let row = y * b.bytesPerRow
                for x in 0..<b.width where b.pixels[row + x * 4 + 3] != 255 { needs = true; break }
            }
            if needs { b = b.unpremultiplied() }
        case .nv12 where isVideoRange:
            b = b.expandedFromVideoRange()
        default:
            break
        }
        return b
    }
}
