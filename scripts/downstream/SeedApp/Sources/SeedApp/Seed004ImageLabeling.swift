import Foundation
import MLKit

// Seed 004 (ML Kit: label images with a custom model), as written; the camera helper included.

func imageOrientation(
    deviceOrientation: UIDeviceOrientation,
    cameraPosition: AVCaptureDevice.Position
) -> UIImage.Orientation {
    switch deviceOrientation {
    case .portrait:
        return cameraPosition == .front ? .leftMirrored : .right
    case .landscapeLeft:
        return cameraPosition == .front ? .downMirrored : .up
    case .portraitUpsideDown:
        return cameraPosition == .front ? .rightMirrored : .left
    case .landscapeRight:
        return cameraPosition == .front ? .upMirrored : .down
    case .faceDown, .faceUp, .unknown:
        return .up
    }
}

enum Seed004 {
    static func labeler() throws -> ImageLabeler {
        guard let localModelFilePath = Bundle.module.path(forResource: "classifier", ofType: "tflite") else {
            throw AppError("no classifier resource")
        }
        let localModel = LocalModel(path: localModelFilePath)
        let options = CustomImageLabelerOptions(localModel: localModel)
        options.confidenceThreshold = NSNumber(value: 0.0)
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        return imageLabeler
    }

    static func labels(photos: [String]) throws -> [[String: Any]] {
        let imageLabeler = try labeler()
        return try photos.map { photo in
            guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
            let image = VisionImage(image: uiImage)
            image.orientation = imageOrientation(deviceOrientation: UIDevice.current.orientation, cameraPosition: .back)
            var labels: [ImageLabel]
            do {
                labels = try imageLabeler.results(in: image)
            } catch let error {
                print("Failed to label image with error: \(error.localizedDescription).")
                throw error
            }
            return ["seed": "004", "photo": (photo as NSString).lastPathComponent, "labels": Output.labels(labels)]
        }
    }
}
