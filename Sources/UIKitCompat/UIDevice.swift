import Foundation
import Locking

/// A Linux stand-in for UIKit's `UIDevice`: `UIDevice.current.orientation`, settable so that a
/// program (or a test) can say how its camera is held; `.unknown` until then.
public final class UIDevice: Sendable {
    /// The device.
    public static let current = UIDevice()

    private let storedOrientation = Locked<UIDeviceOrientation>(.unknown)

    /// How the device is held.
    public var orientation: UIDeviceOrientation {
        get { storedOrientation.withLock { $0 } }
        set { storedOrientation.withLock { $0 = newValue } }
    }
}
