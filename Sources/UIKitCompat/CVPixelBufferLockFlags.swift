/// Flags of `CVPixelBufferLockBaseAddress`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    /// The raw flags.
    public let rawValue: UInt64
    /// Wraps raw flags.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The caller will only read.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}
