/// Which pixels a JPEG decodes to. Decoders differ in their last bits (IDCT, chroma upsampling,
/// colour conversion), and a model's scores follow its pixels: pick the decoder of the reference
/// a result is compared with.
package enum JPEGPixels: Equatable, Sendable {
    /// MediaPipe's own decoder (stb_image) bit for bit — the default.
    case mediaPipe
    /// libjpeg-turbo's own full-size decode (ISLOW IDCT, fancy upsampling): OpenCV's `imread`
    /// pixels, which Ultralytics' `predict` sees.
    case openCV
    /// libjpeg-turbo at the smallest DCT scale (1/8, 1/4, 1/2) keeping at least this size: fast,
    /// neither reference's pixels.
    case reduced(width: Int, height: Int)
}
