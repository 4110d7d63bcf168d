import Foundation
import Imaging
import VisionCore

/// A picture for ML Kit's detectors (`MLKVisionImage`): a `UIImage`, or a camera `CMSampleBuffer`
/// (32BGRA, or NV12 full or video range), shown with ``orientation``. Unlike MediaPipe, every
/// orientation is accepted, mirrored ones included (front cameras produce them): the picture is
/// turned and flipped as the orientation says before it is analysed.
public final class VisionImage: NSObject {
    /// How the stored pixels are turned for display (default `.up`).
    public var orientation: UIImage.Orientation = .up
    /// The source `UIImage`, if the image was made from one.
    public let image: UIImage?
    /// The source sample buffer, if the image was made from one.
    public let buffer: CMSampleBuffer?
    /// When the frame was shown, in milliseconds (a Linux extension, for stream-mode detection of
    /// video frames). nil: a sample buffer's presentation time, else the time of the call.
    public var timestampMs: Int?

    /// A picture from a `UIImage` (set ``orientation`` to the image's `imageOrientation`, as the
    /// guides do: ML Kit does not read it by itself).
    public init(image: UIImage) {
        self.image = image
        buffer = nil
    }

    /// A picture from a camera sample buffer.
    public init(buffer: CMSampleBuffer) {
        image = nil
        self.buffer = buffer
    }

    /// What the image holds now, as a value that can cross threads: ``process`` calls take it when
    /// they are made, so the image may be changed or reused once they return.
    var contents: Contents {
        Contents(image: image, buffer: buffer, orientation: orientation, timestampMs: timestampMs)
    }

    /// A ``VisionImage``'s source, orientation and timestamp at one moment.
    struct Contents: Sendable {
        let image: UIImage?
        let buffer: CMSampleBuffer?
        let orientation: UIImage.Orientation
        let timestampMs: Int?

        /// A box in the stored pixels (`width`×`height`) as ML Kit reports it: in the picture as
        /// shown for a `UIImage`, as stored for a buffer.
        func frame(_ box: TrackBox, width: Int, height: Int) -> CGRect {
            let b =
                buffer == nil
                ? box.shown(storedWidth: width, storedHeight: height, orientation: orientation.imaging) : box
            return CGRect(x: b.x, y: b.y, width: b.width, height: b.height)
        }

        /// The pixels as stored (not yet turned), or ML Kit's error for buffers it cannot take.
        func storedPixels() throws -> Bitmap {
            if let image { return image.bitmap }
            guard let buffer, CMSampleBufferIsValid(buffer), let pixels = CMSampleBufferGetImageBuffer(buffer) else {
                throw MLKitError(
                    .invalidArgument,
                    "The sample buffer holds no image; VisionImage(buffer:) takes camera frames (CMSampleBuffer with "
                        + "a CVPixelBuffer)."
                )
            }
            let format = CVPixelBufferGetPixelFormatType(pixels)
            guard
                [
                    kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                    kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                ].contains(format)
            else {
                throw MLKitError(
                    .invalidArgument,
                    "Unsupported pixel format \(String(format: "0x%08x", format)); VisionImage(buffer:) takes "
                        + "kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange or "
                        + "kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange."
                )
            }
            do { return try pixels.straightBitmap() } catch let e as ImagingError {
                throw MLKitError(.invalidArgument, e.message, underlying: e)
            }
        }

        /// The frame's time in milliseconds, if it has one: ``timestampMs``, else a valid sample
        /// buffer's presentation time.
        var resolvedTimestampMs: Int? {
            if let timestampMs { return timestampMs }
            if let buffer, CMSampleBufferIsValid(buffer) {
                let seconds = CMTimeGetSeconds(CMSampleBufferGetPresentationTimeStamp(buffer))
                if seconds.isFinite, abs(seconds) < 1e12 { return Int((seconds * 1000).rounded()) }
            }
            return nil
        }

        /// The picture as shown: turned and flipped by ``orientation``, stored upright.
        func uprightPixels() throws -> Bitmap {
            var b = try storedPixels()
            if orientation != .up {
                if b.format == .nv12 { b = b.convertedToRGB() }
                b = b.upright(orientation.imaging)
            }
            return b
        }
    }
}
