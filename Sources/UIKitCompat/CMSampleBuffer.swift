import Foundation

/// A Linux stand-in for Core Media's `CMSampleBuffer`: a video frame's pixel buffer and its
/// presentation time, as a capture or decoding pipeline delivers it.
public final class CMSampleBuffer: Sendable {
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
