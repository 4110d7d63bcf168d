import Foundation
import MLKit

// Seed 003 (ML Kit: detect, track and classify objects with a custom model), as written.

enum Seed003 {
    static func singleImage(photos: [String]) throws -> [[String: Any]] {
        guard let localModelFilePath = Bundle.module.path(forResource: "classifier", ofType: "tflite") else {
            throw AppError("no classifier resource")
        }
        let localModel = LocalModel(path: localModelFilePath)
        let options = CustomObjectDetectorOptions(localModel: localModel)
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.shouldEnableMultipleObjects = true
        options.classificationConfidenceThreshold = NSNumber(value: 0.5)
        options.maxPerObjectLabelCount = 3
        let objectDetector = ObjectDetector.objectDetector(options: options)

        return try photos.map { photo in
            guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
            let image = VisionImage(image: uiImage)
            image.orientation = uiImage.imageOrientation
            var objects: [Object]
            do {
                objects = try objectDetector.results(in: image)
            } catch let error {
                print("Failed to detect objects with error: \(error.localizedDescription).")
                throw error
            }
            return ["seed": "003", "photo": (photo as NSString).lastPathComponent, "objects": Output.objects(objects)]
        }
    }
}
