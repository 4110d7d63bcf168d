import Imaging
import MediaPipeTasksVision

/// Opens a picture for the command line. The tasks refuse mirrored orientations (MediaPipe's rule),
/// so a photo whose EXIF orientation (or `--orientation`) is mirrored is turned upright here, pixels
/// and all, and processed as shown.
enum PictureLoader {
    static func load(_ path: String, orientation: UIImage.Orientation?) throws -> MPImage {
        let image = try MPImage(contentsOfFile: path, orientation: orientation)
        guard image.orientation.isMirrored else { return image }
        return MPImage(bitmap: image.bitmap.upright(image.orientation), orientation: .up)
    }
}
