import Imaging

/// Which pixels a JPEG decodes to (an extension). Decoders differ in their last bits (IDCT, chroma
/// upsampling, colour conversion), and a model's scores follow its pixels: pick the decoder of the
/// reference a result is compared with.
public enum JPEGDecoding: Equatable, Sendable {
    /// MediaPipe's own decoder (stb_image) bit for bit — the default.
    case mediaPipe
    /// libjpeg-turbo's own full-size decode (ISLOW IDCT, fancy upsampling): OpenCV's `imread`
    /// pixels, which Ultralytics' `predict` sees.
    case openCV
    /// libjpeg-turbo at the smallest DCT scale (1/8, 1/4, 1/2) keeping at least this size: fast,
    /// neither reference's pixels.
    case reduced(width: Int, height: Int)

    /// The decoding the pixel layer names `pixels`.
    package init(_ pixels: JPEGPixels) {
        switch pixels {
        case .mediaPipe: self = .mediaPipe
        case .openCV: self = .openCV
        case .reduced(let width, let height): self = .reduced(width: width, height: height)
        }
    }

    /// The decoder's rule.
    package var pixels: JPEGPixels {
        switch self {
        case .mediaPipe: return .mediaPipe
        case .openCV: return .openCV
        case .reduced(let width, let height): return .reduced(width: width, height: height)
        }
    }
}
