/// UIKit's `UIDeviceOrientation`, with the same cases and raw values, so that camera code choosing
/// an image orientation from the device's compiles on Linux.
public enum UIDeviceOrientation: Int, Sendable {
    case unknown = 0
    case portrait = 1
    case portraitUpsideDown = 2
    case landscapeLeft = 3
    case landscapeRight = 4
    case faceUp = 5
    case faceDown = 6
}
