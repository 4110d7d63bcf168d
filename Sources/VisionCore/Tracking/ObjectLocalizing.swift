import Imaging

/// Finds objects whatever their class: what ``StreamDetectionSession`` runs on each picture.
/// ``ClassAgnosticLocalizer`` is the real one; tests script the boxes.
package protocol ObjectLocalizing: Sendable {
    /// The objects in `bitmap` shown with `orientation`, best score first, boxes in the stored pixels.
    func localize(_ bitmap: Bitmap, orientation: ImageOrientation) throws -> [LocalizedBox]
}
