import Imaging
import MLKit
import MediaPipeTasksVision

/// A picture ready for a task: the `MPImage` the loader decoded once (never mirrored: the loader
/// turns mirrored pictures upright), handed as it is to MediaPipe's tasks and, as a `VisionImage`
/// over the same pixels, to ML Kit's.
package struct Picture {
    package let image: MPImage

    /// Stored pixels per result pixel: what boxes are scaled by to be drawn on the pixels.
    package var drawScale: Double { image.fileSize.map { Double(image.bitmap.width) / Double($0.width) } ?? 1 }
    /// The picture as shown (boxes are in this frame).
    package var shown: Bitmap { image.bitmap.upright(image.orientation.imaging) }
    /// The shown size of the file (results are in this size).
    package var shownWidth: Int { Int(image.width) }
    package var shownHeight: Int { Int(image.height) }

    /// The same pixels and orientation for ML Kit (no copy).
    package var visionImage: VisionImage {
        let vision = VisionImage(image: UIImage(bitmap: image.bitmap, orientation: image.orientation))
        vision.orientation = image.orientation
        return vision
    }

    /// Opens a picture as shown: its EXIF orientation (or `orientation`); a mirrored one is turned
    /// upright, pixels and all (the tasks refuse mirrored orientations, MediaPipe's rule).
    /// JPEGs decode to `jpeg`'s pixels.
    package static func load(
        _ path: String, orientation: UIImage.Orientation?, jpeg: JPEGDecoding = .mediaPipe
    ) throws -> Picture {
        upright(try MPImage(contentsOfFile: path, orientation: orientation, jpegDecoding: jpeg))
    }

    /// A picture from encoded bytes (a server request's), as ``load(_:orientation:jpeg:)`` opens a file.
    package static func load(bytes: [UInt8], jpeg: JPEGDecoding = .mediaPipe) throws -> Picture {
        upright(try MPImage(encoded: bytes, jpegDecoding: jpeg))
    }

    /// `image`, with a mirrored orientation turned upright, pixels and all.
    private static func upright(_ image: MPImage) -> Picture {
        guard image.orientation.isMirrored else { return Picture(image: image) }
        let size = image.fileSize.map { image.orientation.swapsDimensions ? (width: $0.height, height: $0.width) : $0 }
        return Picture(
            image: MPImage(bitmap: image.bitmap.upright(image.orientation.imaging), orientation: .up, fileSize: size))
    }
}
