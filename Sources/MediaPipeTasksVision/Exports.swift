// `import MediaPipeTasksVision` also brings the Linux stand-ins the seeds' code uses (`UIImage`,
// `UIImage.Orientation`, `CVPixelBuffer`, `CMSampleBuffer`, `CGRect` via Foundation) and the pixel
// types behind them, as the iOS framework brings UIKit's.
@_exported import Foundation
@_exported import UIKitCompat

@_exported import enum Imaging.JPEGDecoding
@_exported import enum VisionCore.YOLOHeadLayout
// YOLO decoding options (`ObjectDetectorOptions.yolo`, an extension) come from the core.
@_exported import struct VisionCore.YOLOOptions
