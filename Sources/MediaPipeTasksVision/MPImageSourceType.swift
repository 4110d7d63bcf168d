/// What an ``MPImage`` was made from. As on iOS (`NS_TYPED_ENUM` over `NSInteger`), a struct with
/// `.image`, `.pixelBuffer` and `.sampleBuffer` constants.
public struct MPImageSourceType: RawRepresentable, Hashable, Sendable {
    /// The integer iOS stores (0, 1, 2).
    public let rawValue: Int
    /// Wraps an integer source type.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Made from a `UIImage` (or, on Linux, a file or raw pixels).
    public static let image = MPImageSourceType(rawValue: 0)
    /// Made from a `CVPixelBuffer`.
    public static let pixelBuffer = MPImageSourceType(rawValue: 1)
    /// Made from a `CMSampleBuffer`.
    public static let sampleBuffer = MPImageSourceType(rawValue: 2)
}
