import Foundation
import MediaPipeTasksVision

// Seed 000 (MediaPipe object detector for iOS), as written; `Bundle.main` is `Bundle.module` here
// (the model is this package's resource) and the UIImage comes from a file.

// Class that conforms to the `ObjectDetectorLiveStreamDelegate` protocol and
// implements the method that the object detector calls once it
// finishes performing detection on each input frame.
class ObjectDetectorResultProcessor: NSObject, ObjectDetectorLiveStreamDelegate {
    var timestamps: [Int] = []
    func objectDetector(
        _ objectDetector: ObjectDetector,
        didFinishDetection objectDetectionResult: ObjectDetectorResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the detection result or errors here.
        timestamps.append(timestampInMilliseconds)
    }
}

enum Seed000 {
    static func imageMode(photos: [String]) throws -> [[String: Any]] {
        let modelPath = Bundle.module.path(forResource: "model", ofType: "tflite")
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.maxResults = 5
        let objectDetector = try ObjectDetector(options: options)

        return try photos.map { photo in
            guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
            // Convert the `UIImage` object to a MediaPipe's Image object having the default
            // orientation `UIImage.Orientation.up`.
            let image = try MPImage(uiImage: uiImage)
            let result = try objectDetector.detect(image: image)
            return [
                "seed": "000", "photo": (photo as NSString).lastPathComponent,
                "detections": Output.detections(result.detections),
            ]
        }
    }

    /// Live stream with the seed's delegate; frames handed over from a DispatchQueue.
    static func liveStream(photo: String) throws -> [Int] {
        let modelPath = Bundle.module.path(forResource: "model", ofType: "tflite")
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream
        options.maxResults = 5
        // Assign an object of the class to the `objectDetectorLiveStreamDelegate`
        // property.
        let processor = ObjectDetectorResultProcessor()
        options.objectDetectorLiveStreamDelegate = processor
        let objectDetector = try ObjectDetector(options: options)
        guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
        let image = try MPImage(uiImage: uiImage)
        let camera = DispatchQueue(label: "camera")
        try camera.sync {
            for t in 0..<3 {
                try objectDetector.detectAsync(image: image, timestampInMilliseconds: t * 33)
                objectDetector.waitUntilIdle()
            }
        }
        return processor.timestamps
    }
}
