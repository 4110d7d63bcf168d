/// A Linux stand-in for AVFoundation's `AVCaptureDevice`, for its `Position` (which camera).
public final class AVCaptureDevice: Sendable {
    /// Which side of the device a camera faces (AVFoundation's raw values).
    public enum Position: Int, Sendable {
        case unspecified = 0
        case back = 1
        case front = 2
    }
}
