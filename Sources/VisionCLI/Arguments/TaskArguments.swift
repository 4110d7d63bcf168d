import Foundation
import Imaging
import MLKit
import MediaPipeTasksVision
import ServeProtocol
import VisionAnalytics
import VisionPipeline

/// The options the tasks take on the command line, declared once and shared by the commands, and
/// how they set the API's options.
enum TaskArguments {
    static let model = OptionSpec(
        .model, .text, "MODEL",
        help: "the .tflite model (a path, or the name of a model fetched with 'vision-tasks models fetch')")
    static let maxResults = OptionSpec(
        .maxResults, .integer(OptionRanges.maxResults), "N", help: "at most N results (-1: all)")
    static let scoreThreshold = OptionSpec(
        .scoreThreshold,
        .number(OptionRanges.scoreThreshold.asDouble, words: ["model"]), "F|model",
        default: "0",
        help: "keep results scoring at least F ('model': the model's own threshold; YOLO models: 0.25 by default)")
    static let allow = OptionSpec(.allow, .list, "NAMES", help: "only these category names (comma list, repeatable)")
    static let deny = OptionSpec(.deny, .list, "NAMES", help: "not these category names")
    static let locale = OptionSpec(.locale, .text, "L", default: "en", help: "display-name locale")
    static let threads = OptionSpec(
        .threads, .integer(OptionRanges.threads), "N", default: "1", help: "inference threads")
    static let fastHybrid = OptionSpec(
        .fastHybrid, .flag, help: "run hybrid int8-weight models in float (faster; not bit-identical to MediaPipe)")
    static let orientation = OptionSpec(
        .orientation,
        .choice(["up", "down", "left", "right", "up-mirrored", "down-mirrored", "left-mirrored", "right-mirrored"]),
        help: "how pictures are shown (default: their EXIF orientation)")
    static let roi = OptionSpec(.roi, .text, "x,y,w,h", help: "classify only this region (normalized coordinates)")

    /// MediaPipe's task options, in help order.
    static let fastDecode = OptionSpec(
        .fastDecode, .flag,
        help: "decode JPEGs at a reduced DCT scale, no smaller than the model's input (faster; not MediaPipe's pixels)")
    static let mediaPipe = [
        model, maxResults, scoreThreshold, allow, deny, locale, threads, fastHybrid, fastDecode, orientation,
    ]
    /// How JPEGs are decoded (default: OpenCV's pixels for YOLO detectors, MediaPipe's otherwise).
    static let jpegDecoder = OptionSpec(
        .jpegDecoder, .choice(["mediapipe", "opencv"]),
        help:
            "JPEG pixels: MediaPipe's decoder or libjpeg-turbo's as OpenCV "
            + "(default: opencv for YOLO models, as Ultralytics)"
    )
    /// YOLO decoding (detect).
    static let yolo = [
        OptionSpec(
            .head, .choice(YOLOOptions.Head.allCases.map(\.rawValue)),
            help:
                "YOLO output layout when the model's shape cannot tell: [1,4+C,N], [1,N,4+C] or [1,K,6] "
                + "(default: from the model)"
        ),
        OptionSpec(
            .iou, .number(0...1), "F", default: "0.7",
            help: "YOLO: suppress boxes overlapping a better one by more than F (Ultralytics' iou)"),
        OptionSpec(.agnosticNMS, .flag, help: "YOLO: suppress overlapping boxes whatever their class"),
        jpegDecoder,
    ]

    /// `--model`, which every task needs.
    static func requiredModel(_ p: ParsedCommand) throws -> String {
        guard let m = p.string(.model) else {
            throw CLIError.usage(
                "\(p.spec.name) needs --model MODEL.tflite (see 'vision-tasks models' for official ones)")
        }
        return m
    }

    /// `--orientation` as an image orientation.
    static func orientation(_ p: ParsedCommand) -> UIImage.Orientation? {
        switch p.string(.orientation) {
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "up-mirrored": return .upMirrored
        case "down-mirrored": return .downMirrored
        case "left-mirrored": return .leftMirrored
        case "right-mirrored": return .rightMirrored
        default: return nil
        }
    }

    /// `--roi x,y,w,h` (normalized); `.zero` (the whole picture) when absent.
    static func roi(_ p: ParsedCommand) throws -> CGRect {
        guard let r = p.string(.roi) else { return .zero }
        guard let v = QueryReader.region(r) else {
            throw CLIError.usage("--roi takes x,y,width,height (normalized, e.g. 0.1,0.1,0.5,0.5), got '\(r)'")
        }
        return CGRect(x: v.x, y: v.y, width: v.width, height: v.height)
    }

    /// `label`'s options.
    static let label = [
        TaskArguments.model,
        OptionSpec(
            .threshold,
            .number(OptionRanges.confidence.asDouble),
            "F", help: "confidence threshold (default: the model's, else 0)"),
        OptionSpec(
            .maxResults, .integer(OptionRanges.labelCount), "N", default: "10",
            help: "at most N labels (≤ 0: 10, as ML Kit)"),
        threads,
        TaskArguments.orientation,
    ]

    /// ML Kit's tracker's own defaults (MLKit declares them), shown in help and used when an option is absent.
    private static let tracker = ObjectTrackerOptions()

    /// `track`'s options.
    static let track = [
        OptionSpec(
            .model, .text, "CLASSIFIER",
            help: "a classifier for the objects' labels (a path or a fetched model's name; default: no labels)"),
        OptionSpec(
            .maxObjects, .integer(OptionRanges.maxObjects), "N", default: "5",
            help: "at most N objects per frame (ML Kit's cap is 5)"),
        OptionSpec(.single, .flag, help: "only the most prominent object (shouldEnableMultipleObjects = false)"),
        OptionSpec(
            .threshold,
            .number(OptionRanges.confidence.asDouble),
            "F", help: "label confidence threshold (default: the model's, else 0)"),
        OptionSpec(
            .maxLabels, .integer(OptionRanges.labelCount), "N", default: "10", help: "labels per object (≤ 0: 10)"),
        OptionSpec(
            .localizer, .text, "DETECTOR",
            help: "the class-agnostic localizer (default: the bundled SSD MobileNet v1)"),
        threads,
        OptionSpec(
            .detectionsJsonl, .text, "PATH",
            help: "also write the localizer's raw boxes per frame (for tracking evaluation)"),
        OptionSpec(
            .trackHigh, .number(0...1), "F", default: "\(tracker.highScoreThreshold)",
            help: "tracker: high-score threshold"),
        OptionSpec(
            .trackLow, .number(0...1), "F", default: "\(tracker.lowScoreThreshold)",
            help: "tracker: low-score threshold"),
        OptionSpec(
            .trackNew, .number(0...1), "F", default: "\(tracker.newTrackThreshold)",
            help: "tracker: score to start a track"),
        OptionSpec(
            .trackIou, .number(0...1), "F", default: "\(tracker.minimumIoU)", help: "tracker: minimum IoU to match"),
        OptionSpec(
            .trackAppearance, .number(0...1), "F", default: "\(tracker.appearanceWeight)",
            help: "tracker: colour-histogram weight"),
        OptionSpec(
            .trackSize, .number(0...1), "F", default: "\(tracker.sizeWeight)", help: "tracker: size-change weight"),
        OptionSpec(
            .trackGroup, .number(0...1), "F", default: "\(tracker.groupCoverage)", help: "tracker: group-box coverage"),
        OptionSpec(
            .trackPart, .number(0...1), "F", default: "\(tracker.partContainment)",
            help: "tracker: part-box containment"),
        OptionSpec(
            .trackConfirm, .integer(1...100), "N", default: "\(tracker.confirmationHits)",
            help: "tracker: frames to confirm a track"),
        OptionSpec(
            .trackCoastMs, .integer(0...60_000), "MS", default: "\(tracker.maxCoastMs)",
            help: "tracker: how long a lost track is kept"),
    ]

    /// `track`'s lines and zones.
    static let zones = [
        OptionSpec(
            .line, .text, "NAME=X1,Y1,X2,Y2",
            help: "count objects crossing this line, in and out per class (repeatable; pixels, or 0…1 fractions)"),
        OptionSpec(
            .zone, .text, "NAME=X1,Y1,X2,Y2,X3,Y3,…",
            help: "a polygon zone: occupancy, visitors, dwell time (repeatable; pixels, or 0…1 fractions)"),
        OptionSpec(
            .anchor, .list, "POINT[,POINT]", default: "bottom-center",
            help: "the box point(s) that place an object for lines and zones: "
                + BoxAnchor.allCases.map(\.rawValue).joined(separator: ", ")),
        OptionSpec(
            .crossingFrames, .integer(1...1000), "N", default: "1",
            help: "frames an object must be seen on the other side of a line to count"),
        OptionSpec(
            .forgetAfter, .integer(1...1_000_000), "N", default: "300",
            help:
                "frames a track may be missing and still count when it reappears across a line (supervision's "
                + "LineZone: 2)"
        ),
    ]
}

extension ClosedRange where Bound == Float {
    /// The same range as the command line's numbers (Double) declare it.
    fileprivate var asDouble: ClosedRange<Double> { Double(lowerBound)...Double(upperBound) }
}
