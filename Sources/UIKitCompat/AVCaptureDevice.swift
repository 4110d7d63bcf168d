/// A Linux stand-in for AVFoundation's `AVCaptureDevice`, for its `Position` (which camera).
public final class AVCaptureDevice: Sendable {
    /// Which side of the device a camera faces (AVFoundation's raw values).
    public enum Position: Int, Sendable {
        /// The position is not known or not specified.
        case unspecified = 0
        /// The camera on the back of the device, facing away from the user.
        case back = 1
        /// The camera on the front of the device, facing the user.
        case front = 2
    }
}
