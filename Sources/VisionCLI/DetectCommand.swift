import Foundation
import Imaging
import MediaPipeTasksVision

/// `vision-tasks detect`: runs the object detector on pictures, prints results, draws boxes.
enum DetectCommand {
    static func run(_ raw: [String]) throws {
        var args = try Arguments(raw, booleanFlags: ["json", "fast-hybrid"])
        guard let model = args.string("model") else { throw CLIError.usage("detect needs --model MODEL.tflite") }
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = model
        let common = try CommonOptions(&args)
        common.apply(to: options, defaultMaxResults: -1)
        let orientation = try args.string("orientation").map(parseOrientation)
        let output = args.string("output")
        let json = args.flag("json")
        var images = args.positionals
        images += args.list("image")
        images = try ImagePaths.expand(images)
        try args.rejectUnknown()
        guard !images.isEmpty else { throw CLIError.usage("detect needs at least one IMAGE") }

        let detector = try ObjectDetector(options: options)
        let many = images.count > 1
        if let output, many {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        }
        for path in images {
            let image = try PictureLoader.load(path, orientation: orientation)
            let result = try detector.detect(image: image)
            if json {
                print(ResultJSON.detection(result, image: path, width: image.bitmap.width, height: image.bitmap.height))
            } else {
                if many { print("\(path):") }
                print(result.description)
                let t = detector.lastTimings
                print(String(format: "(%.2f ms preprocess, %.2f ms inference, %.2f ms postprocess)", t.preprocess * 1000, t.inference * 1000, t.postprocess * 1000))
            }
            if let output {
                let target = many ? (output as NSString).appendingPathComponent(annotatedName(path)) : output
                try Annotator.draw(result, on: image.bitmap).write(to: target)
                if !json { print("wrote \(target)") }
            }
        }
    }

    static func annotatedName(_ path: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return base + "_detections.jpg"
    }

    static func parseOrientation(_ s: String) throws -> ImageOrientation {
        switch s.lowercased() {
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "upmirrored", "up-mirrored": return .upMirrored
        case "downmirrored", "down-mirrored": return .downMirrored
        case "leftmirrored", "left-mirrored": return .leftMirrored
        case "rightmirrored", "right-mirrored": return .rightMirrored
        default: throw CLIError.usage("--orientation must be up, down, left, right (or a -mirrored variant), got '\(s)'")
        }
    }
}
