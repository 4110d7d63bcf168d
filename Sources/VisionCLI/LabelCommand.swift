import Foundation
import Imaging
import MLKit

/// `vision-tasks label`: ML Kit's image labeling with a custom classifier (its rules: the model's
/// threshold unless `--threshold`, at most 10 labels unless `--max-results`, every orientation).
enum LabelCommand {
    static func run(_ raw: [String]) throws {
        var args = try Arguments(raw, booleanFlags: ["json"])
        guard let model = args.string("model") else { throw CLIError.usage("label needs --model MODEL.tflite") }
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: model))
        if let threshold = try args.float("threshold") { options.confidenceThreshold = NSNumber(value: threshold) }
        if let count = try args.int("max-results") { options.maxResultCount = count }
        if let threads = try args.int("threads") {
            guard (1...256).contains(threads) else { throw CLIError.usage("--threads must be between 1 and 256, got \(threads)") }
            options.numThreads = threads
        }
        let orientation = try args.string("orientation").map(DetectCommand.parseOrientation)
        let json = args.flag("json")
        let images = try ImagePaths.expand(args.positionals + args.list("image"))
        try args.rejectUnknown()
        guard !images.isEmpty else { throw CLIError.usage("label needs at least one IMAGE") }
        let labeler = ImageLabeler.imageLabeler(options: options)
        if let error = labeler.modelError as? MLKitError { throw CLIError.task(code: Int(error.code), message: error.message) }
        for path in images {
            let decoded: ImageDecoder.Decoded
            do { decoded = try ImageDecoder.decode(contentsOfFile: path) } catch let e as ImagingError {
                throw CLIError.task(code: e.code == .fileUnreadable ? 5 : 3, message: e.message)
            }
            let image = VisionImage(image: UIImage(bitmap: decoded.bitmap, orientation: decoded.orientation))
            image.orientation = orientation ?? decoded.orientation
            let labels: [ImageLabel]
            do { labels = try labeler.results(in: image) } catch let e as MLKitError { throw CLIError.task(code: Int(e.code), message: e.message) }
            if json {
                let items = labels.map { "{\"text\":\(ResultJSON.escape($0.text)),\"confidence\":\($0.confidence),\"index\":\($0.index)}" }
                print("{\"image\":\(ResultJSON.escape(path)),\"labels\":[" + items.joined(separator: ",") + "]}")
            } else {
                if images.count > 1 { print("\(path):") }
                for label in labels { print(String(format: "%@  %.5f  (index %d)", label.text, label.confidence, label.index)) }
            }
        }
    }
}
