import Foundation
import Imaging
import MediaPipeTasksVision

/// `vision-tasks classify`: runs the image classifier on pictures (or a region of them) and prints results.
enum ClassifyCommand {
    static func run(_ raw: [String]) throws {
        var args = try Arguments(raw, booleanFlags: ["json", "fast-hybrid"])
        guard let model = args.string("model") else { throw CLIError.usage("classify needs --model MODEL.tflite") }
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model
        let common = try CommonOptions(&args)
        common.apply(to: options, defaultMaxResults: 5)
        let orientation = try args.string("orientation").map(DetectCommand.parseOrientation)
        var roi = CGRect.zero
        if let r = args.string("roi") {
            let v = r.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 4, v[2] > 0, v[3] > 0 else { throw CLIError.usage("--roi takes x,y,width,height (normalized), got '\(r)'") }
            roi = CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        let json = args.flag("json")
        var images = args.positionals
        images += args.list("image")
        images = try ImagePaths.expand(images)
        try args.rejectUnknown()
        guard !images.isEmpty else { throw CLIError.usage("classify needs at least one IMAGE") }
        let classifier = try ImageClassifier(options: options)
        for path in images {
            let image = try PictureLoader.load(path, orientation: orientation)
            let result = try classifier.classify(image: image, regionOfInterest: roi)
            if json {
                let heads = result.classificationResult.classifications.map { c in
                    "{\"headIndex\":\(c.headIndex),\"headName\":\(ResultJSON.escape(c.headName ?? "")),\"categories\":["
                        + c.categories.map(ResultJSON.category).joined(separator: ",") + "]}"
                }
                print("{\"image\":\(ResultJSON.escape(path)),\"timestampInMilliseconds\":\(result.timestampInMilliseconds),\"classifications\":[" + heads.joined(separator: ",") + "]}")
            } else {
                if images.count > 1 { print("\(path):") }
                print(result.description)
            }
        }
    }
}
