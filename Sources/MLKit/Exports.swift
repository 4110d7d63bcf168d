// `import MLKit` also brings the Linux stand-ins camera code uses (`UIImage`, `CMSampleBuffer`,
// `UIDevice`, `AVCaptureDevice`, …) and Foundation, as the iOS pods bring UIKit's.
@_exported import Foundation
@_exported import UIKitCompat
