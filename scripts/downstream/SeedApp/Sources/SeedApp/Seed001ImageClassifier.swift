import Foundation
import MediaPipeTasksVision

// Seed 001 (MediaPipe image classifier for iOS), as written (`Bundle.module` for `Bundle.main`).

class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate {
    func imageClassifier(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the image classifier result or errors here.
    }
}

enum Seed001 {
    static func imageMode(photos: [String]) throws -> [[String: Any]] {
        let modelPath = Bundle.module.path(forResource: "classifier", ofType: "tflite")
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.maxResults = 5
        let imageClassifier = try ImageClassifier(options: options)

        return try photos.map { photo in
            guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
            let image = try MPImage(uiImage: uiImage)
            let result = try imageClassifier.classify(image: image)
            let categories = result.classificationResult.classifications.first?.categories ?? []
            return [
                "seed": "001", "photo": (photo as NSString).lastPathComponent,
                "categories": Output.categories(categories),
            ]
        }
    }

    /// The seed's live-stream set-up (a delegate of the seed's class) is accepted.
    static func liveStreamSetUp() throws -> Bool {
        let modelPath = Bundle.module.path(forResource: "classifier", ofType: "tflite")
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream
        options.maxResults = 5
        let processor = ImageClassifierResultProcessor()
        options.imageClassifierLiveStreamDelegate = processor
        let imageClassifier = try ImageClassifier(options: options)
        return imageClassifier.droppedFrameCount == 0
    }
}
