/// The eight orientations of UIKit's `UIImage.Orientation` (same raw values): how the stored
/// pixels must be turned to show the picture upright.
package enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 0
    /// Stored upside down: show it turned 180°.
    case down = 1
    /// Show it turned 90° counter-clockwise.
    case left = 2
    /// Show it turned 90° clockwise (portrait photos from a phone's back camera).
    case right = 3
    /// `.up`, mirrored left–right.
    case upMirrored = 4
    /// `.down`, mirrored left–right (i.e. flipped top–bottom).
    case downMirrored = 5
    /// `.right`'s upright picture mirrored left–right (EXIF 5, transpose).
    case leftMirrored = 6
    /// `.left`'s upright picture mirrored left–right (EXIF 7, transverse).
    case rightMirrored = 7

    /// The orientation an EXIF `Orientation` tag (1…8) stands for; nil for other values.
    package init?(exif: Int) {
        switch exif {
        case 1: self = .up
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: return nil
        }
    }

    /// The EXIF `Orientation` value.
    package var exifValue: Int {
        switch self {
        case .up: return 1
        case .upMirrored: return 2
        case .down: return 3
        case .downMirrored: return 4
        case .leftMirrored: return 5
        case .right: return 6
        case .rightMirrored: return 7
        case .left: return 8
        }
    }

    /// True for the four mirrored orientations.
    package var isMirrored: Bool { rawValue >= 4 }

    /// True when showing the picture upright swaps width and height.
    package var swapsDimensions: Bool {
        switch self {
        case .left, .right, .leftMirrored, .rightMirrored: return true
        default: return false
        }
    }

    /// The rotation, in degrees clockwise, that shows the stored picture upright (before any mirroring).
    package var clockwiseDegrees: Int {
        switch self {
        case .up, .upMirrored: return 0
        case .right, .leftMirrored: return 90
        case .down, .downMirrored: return 180
        case .left, .rightMirrored: return 270
        }
    }
}
