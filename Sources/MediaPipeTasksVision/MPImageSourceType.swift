/// What an ``MPImage`` was made from.
public enum MPImageSourceType: Int, Sendable {
    case image = 0
    case pixelBuffer = 1
    case sampleBuffer = 2
}
