// `import MediaPipeTasksVision` also brings the Linux stand-ins the seeds' code uses (`UIImage`,
// `UIImage.Orientation`, `CVPixelBuffer`, `CMSampleBuffer`, `CGRect` via Foundation), as the iOS
// framework brings UIKit's.
@_exported import Foundation
@_exported import UIKitCompat
