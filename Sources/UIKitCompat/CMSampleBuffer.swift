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

/// A Linux stand-in for Core Media's `CMSampleBuffer`: a video frame's pixel buffer and its
/// presentation time, as a capture or decoding pipeline delivers it.
public final class CMSampleBuffer: @unchecked Sendable {
    /// The frame, or nil for buffers that carry no image.
    public let imageBuffer: CVPixelBuffer?
    /// When the frame is to be shown.
    public let presentationTimeStamp: CMTime
    /// False for buffers marked invalid (Core Media's `CMSampleBufferIsValid`).
    public let isValid: Bool

    /// A sample carrying `imageBuffer`.
    public init(imageBuffer: CVPixelBuffer?, presentationTimeStamp: CMTime, isValid: Bool = true) {
        self.imageBuffer = imageBuffer
        self.presentationTimeStamp = presentationTimeStamp
        self.isValid = isValid
    }
}

/// `CMSampleBufferGetImageBuffer`.
public func CMSampleBufferGetImageBuffer(_ buffer: CMSampleBuffer) -> CVPixelBuffer? { buffer.imageBuffer }
/// `CMSampleBufferGetPresentationTimeStamp`.
public func CMSampleBufferGetPresentationTimeStamp(_ buffer: CMSampleBuffer) -> CMTime { buffer.presentationTimeStamp }
/// `CMSampleBufferIsValid`.
public func CMSampleBufferIsValid(_ buffer: CMSampleBuffer) -> Bool { buffer.isValid }
