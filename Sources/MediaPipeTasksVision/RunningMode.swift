/// How a vision task receives its input (`MPPRunningMode`, an `NSUInteger` enum on iOS).
public enum RunningMode: UInt, Sendable, CustomStringConvertible {
    /// Single pictures: `detect(image:)`, `classify(image:)`.
    case image = 0
    /// Decoded video frames with timestamps: `detect(videoFrame:timestampInMilliseconds:)`.
    case video = 1
    /// A live feed: `detectAsync(image:timestampInMilliseconds:)`, results to a delegate.
    case liveStream = 2

    /// The name MediaPipe uses in its messages (`MPPRunningModeDisplayName`).
    public var description: String {
        switch self {
        case .image: return "Image"
        case .video: return "Video"
        case .liveStream: return "Live Stream"
        }
    }
}
