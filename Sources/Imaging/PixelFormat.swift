/// How a ``Bitmap`` stores its pixels.
package enum PixelFormat: String, Sendable, CaseIterable {
    /// 4 bytes per pixel: red, green, blue, alpha.
    case rgba8
    /// 4 bytes per pixel: blue, green, red, alpha (`kCVPixelFormatType_32BGRA`).
    case bgra8
    /// 3 bytes per pixel: red, green, blue.
    case rgb8
    /// 1 byte per pixel.
    case gray8
    /// Bi-planar 4:2:0 YCbCr: a full-size Y plane, then a half-size interleaved CbCr plane
    /// (`kCVPixelFormatType_420YpCbCr8BiPlanar…`).
    case nv12

    /// Bytes per pixel of the first plane.
    package var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: return 4
        case .rgb8: return 3
        case .gray8, .nv12: return 1
        }
    }
}
