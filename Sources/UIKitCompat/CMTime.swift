import Foundation

/// A Linux stand-in for Core Media's `CMTime`: `value / timescale` seconds.
public struct CMTime: Equatable, Sendable {
    /// The time in units of `timescale`.
    public var value: Int64
    /// Units per second.
    public var timescale: Int32

    /// `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale
    }

    /// Seconds (NaN for an invalid timescale).
    public var seconds: Double { timescale > 0 ? Double(value) / Double(timescale) : .nan }
}

/// `CMTimeMake`.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }
/// `CMTimeGetSeconds`.
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }
