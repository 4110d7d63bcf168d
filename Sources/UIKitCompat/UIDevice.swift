import Foundation

/// A Linux stand-in for UIKit's `UIDevice`: `UIDevice.current.orientation`, settable so that a
/// program (or a test) can say how its camera is held; `.unknown` until then.
public final class UIDevice: @unchecked Sendable {
    /// The device.
    public static let current = UIDevice()

    private let lock = NSLock()
    private var storedOrientation: UIDeviceOrientation = .unknown

    /// How the device is held.
    public var orientation: UIDeviceOrientation {
        get { lock.lock(); defer { lock.unlock() }; return storedOrientation }
        set { lock.lock(); storedOrientation = newValue; lock.unlock() }
    }
}
