import Foundation

/// An object found in a picture (`MLKObject`): where it is, its tracking ID in stream mode, and its
/// labels when classification is on.
///
/// ``frame`` is in pixels with a top-left origin: for a `VisionImage(image:)`, in the picture as
/// shown (after ``VisionImage/orientation``), as ML Kit's samples draw it over the image; for a
/// `VisionImage(buffer:)`, in the buffer's stored pixels (not rotated), as the camera samples
/// normalize it by the buffer's width and height.
public final class Object: NSObject, Sendable {
    /// The object's bounding box (see the type's documentation for its coordinates).
    public let frame: CGRect
    /// The object's tracking ID in stream mode (stable while it is tracked, new when it comes back
    /// into the frame); nil in single-image mode.
    public let trackingID: NSNumber?
    /// The labels, best first; empty when classification is off or no label passed the threshold.
    public let labels: [ObjectLabel]

    /// An object.
    public init(frame: CGRect, trackingID: NSNumber?, labels: [ObjectLabel]) {
        self.frame = frame
        self.trackingID = trackingID
        self.labels = labels
    }

    public override var description: String {
        let id = trackingID.map { "#\($0) " } ?? ""
        return
            "\(id)(\(frame.origin.x), \(frame.origin.y), \(frame.size.width), \(frame.size.height)) "
            + "\(labels.map(\.description).joined(separator: ", "))"
    }
}
