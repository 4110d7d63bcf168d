/// UIKit's `UIDeviceOrientation`, with the same cases and raw values, so that camera code choosing
/// an image orientation from the device's compiles on Linux.
public enum UIDeviceOrientation: Int, Sendable {
    /// The orientation is not known (``UIDevice``'s value until a program sets one).
    case unknown = 0
    /// Upright, in portrait: the home button (or bottom edge) at the bottom.
    case portrait = 1
    /// Upside down, in portrait: the home button (or bottom edge) at the top.
    case portraitUpsideDown = 2
    /// In landscape, turned so that the home button (or bottom edge) is on the right.
    case landscapeLeft = 3
    /// In landscape, turned so that the home button (or bottom edge) is on the left.
    case landscapeRight = 4
    /// Flat, screen facing up.
    case faceUp = 5
    /// Flat, screen facing down.
    case faceDown = 6
}
