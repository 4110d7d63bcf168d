import Imaging

extension UIImage {
    /// UIKit's `UIImage.Orientation`: how the stored pixels are turned to show the picture upright,
    /// with UIKit's eight cases and raw values.
    public enum Orientation: Int, Sendable, CaseIterable {
        /// Stored upright.
        case up = 0
        /// Stored upside down: shown turned 180°.
        case down = 1
        /// Shown turned 90° counter-clockwise.
        case left = 2
        /// Shown turned 90° clockwise (portrait photos from a phone's back camera).
        case right = 3
        /// `.up`, mirrored left–right.
        case upMirrored = 4
        /// `.down`, mirrored left–right (i.e. flipped top–bottom).
        case downMirrored = 5
        /// `.right`'s upright picture mirrored left–right (EXIF 5, transpose).
        case leftMirrored = 6
        /// `.left`'s upright picture mirrored left–right (EXIF 7, transverse).
        case rightMirrored = 7

        /// The pixel kernels' orientation (same cases, same raw values).
        package var imaging: ImageOrientation {
            switch self {
            case .up: return .up
            case .down: return .down
            case .left: return .left
            case .right: return .right
            case .upMirrored: return .upMirrored
            case .downMirrored: return .downMirrored
            case .leftMirrored: return .leftMirrored
            case .rightMirrored: return .rightMirrored
            }
        }

        /// The orientation the pixel kernels name `imaging`.
        package init(_ imaging: ImageOrientation) {
            switch imaging {
            case .up: self = .up
            case .down: self = .down
            case .left: self = .left
            case .right: self = .right
            case .upMirrored: self = .upMirrored
            case .downMirrored: self = .downMirrored
            case .leftMirrored: self = .leftMirrored
            case .rightMirrored: self = .rightMirrored
            }
        }

        /// True for the four mirrored orientations.
        package var isMirrored: Bool { imaging.isMirrored }
        /// True when showing the picture upright swaps width and height.
        package var swapsDimensions: Bool { imaging.swapsDimensions }
    }
}
