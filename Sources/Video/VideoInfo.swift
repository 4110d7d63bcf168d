/// What a video's container says about its video stream.
public struct VideoInfo: Equatable, Sendable {
    /// Frame size in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Average frame rate, when the container gives one.
    public let framesPerSecond: Double?
    /// Duration in milliseconds, when known.
    public let durationMs: Int?
    /// Number of frames the container announces, when it does.
    public let frameCount: Int?
    /// FFmpeg's decoder name, e.g. `h264`, `hevc`, `vp9`, `mjpeg`.
    public let codec: String
}
