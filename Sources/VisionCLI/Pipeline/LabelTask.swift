import Foundation
import Imaging
import MLKit
import Video

/// `label`: ML Kit's image labeling with a custom classifier (its rules: the model's threshold
/// unless `--threshold`, at most 10 labels unless `--max-results`, every orientation).
final class LabelTask: BatchTask {
    let name = "label"
    private let labeler: ImageLabeler
    let isStateful = false

    static let options = [
        TaskArguments.model,
        OptionSpec(.threshold, .number(0...1), "F", help: "confidence threshold (default: the model's, else 0)"),
        OptionSpec(
            .maxResults, .integer(-1_000_000...1_000_000), "N", default: "10",
            help: "at most N labels (≤ 0: 10, as ML Kit)"),
        OptionSpec(.threads, .integer(1...256), "N", default: "1", help: "inference threads"),
        TaskArguments.orientation,
    ]

    init(_ config: LabelConfig) throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: config.modelPath))
        if let t = config.threshold { options.confidenceThreshold = NSNumber(value: t) }
        if let n = config.maxResults { options.maxResultCount = n }
        options.numThreads = config.threads
        labeler = ImageLabeler.imageLabeler(options: options)
        if let error = labeler.modelError { throw error }
    }

    func picture(_ picture: Picture) throws -> TaskRecord {
        let image = picture.visionImage
        return Self.record(try labeler.results(in: image))
    }

    func frame(_ frame: VideoFrame, video: Int) throws -> TaskRecord {
        Self.record(try labeler.results(in: VisionImage(image: UIImage(bitmap: frame.bitmap))))
    }

    static func record(_ labels: [ImageLabel]) -> TaskRecord {
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

    func liveSession(deliver: @escaping (Int, Result<TaskRecord, ItemFailure>) -> Void) throws -> LiveSession? { nil }
}
