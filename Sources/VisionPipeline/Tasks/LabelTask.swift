import Foundation
import Imaging
import MLKit
import Video

/// `label`: ML Kit's image labeling with a custom classifier (its rules: the model's threshold
/// unless `--threshold`, at most 10 labels unless `--max-results`, every orientation).
package final class LabelTask: BatchTask {
    package let name = "label"
    private let labeler: ImageLabeler
    package let isStateful = false

    package init(_ config: LabelConfig) throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: config.modelPath))
        if let t = config.threshold { options.confidenceThreshold = NSNumber(value: t) }
        if let n = config.maxResults { options.maxResultCount = n }
        options.numThreads = config.threads
        labeler = ImageLabeler.imageLabeler(options: options)
        if let error = labeler.modelError { throw error }
    }

    package func picture(_ picture: Picture) throws -> TaskRecord {
        let image = picture.visionImage
        return Self.record(try labeler.results(in: image))
    }

    package func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        Self.record(try labeler.results(in: VisionImage(image: UIImage(bitmap: frame.bitmap))))
    }

    package static func record(_ labels: [ImageLabel]) -> TaskRecord {
        var record = TaskRecord(
            fields: [("labels", ResultFields.labels(labels))],
            text: labels.map { String(format: "%@  %.5f  (index %d)", $0.text, $0.confidence, $0.index) }.joined(
                separator: "\n"))
        if let top = labels.first {
            record.caption = String(format: "%@ %.0f%%", top.text, top.confidence * 100)
            record.classes = [top.text]
        }
        return record
    }

    package func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? {
        nil
    }
}
