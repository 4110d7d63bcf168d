import TFLiteModel

/// How a YOLO-style detector lays out its single output, decided from the output's shape, the
/// input's size and Ultralytics' metadata (or forced by an override):
///
/// - a detection head, `[1, 4+C, N]` (Ultralytics' export: channels first) or `[1, N, 4+C]`: for
///   each of N anchors a centre-size box then C class scores; N is the anchor count of strides 8,
///   16 and 32 over the input (`Σ ⌈H/s⌉·⌈W/s⌉`), which tells it apart from the other layouts;
/// - end to end, `[1, K, 6]`: K final detections `x1, y1, x2, y2, score, class` (no NMS to run).
package enum YOLOHeadLayout: Equatable, Sendable {
    /// `[1, 4+C, N]`: rows of box values and class scores, one column per anchor.
    case channelsFirst(classes: Int, anchors: Int)
    /// `[1, N, 4+C]`: one row per anchor.
    case channelsLast(classes: Int, anchors: Int)
    /// `[1, K, 6]`: final detections.
    case endToEnd(detections: Int)

    /// A layout forced by the caller, for shapes the rules cannot tell.
    package enum Override: String, Sendable, CaseIterable {
        case channelsFirst = "yolo"
        case channelsLast = "yolo-transposed"
        case endToEnd = "yolo-e2e"
    }

    /// The input's height and width, NHWC or NCHW (3 or 4 channels), nil for other shapes.
    package static func inputSize(_ input: Tensor) -> (height: Int, width: Int, channelsFirst: Bool)? {
        let d = input.shape
        guard d.count == 4, d[0] == 1 || d[0] == -1 else { return nil }
        if (d[3] == 3 || d[3] == 4), d[1] > 0, d[2] > 0 { return (d[1], d[2], false) }
        if (d[1] == 3 || d[1] == 4), d[2] > 0, d[3] > 0 { return (d[2], d[3], true) }
        return nil
    }

    /// Anchors of a YOLOv8-and-later head over a `height`×`width` input (strides 8, 16, 32).
    package static func anchorCount(height: Int, width: Int) -> Int {
        [8, 16, 32].reduce(0) { $0 + ((height + $1 - 1) / $1) * ((width + $1 - 1) / $1) }
    }

    /// The layout of `file`'s outputs; throws ``VisionCoreError`` (invalidArgument) naming the
    /// shapes found and the override when no rule fits.
    package static func resolve(
        _ file: ModelFile, metadata: UltralyticsMetadata?, override: Override? = nil
    ) throws -> YOLOHeadLayout {
        try decide(file, metadata: metadata, override: override).layout
    }

    /// The layout of `file`'s outputs and why it was chosen (for `inspect`); throws as
    /// ``resolve(_:metadata:override:)``.
    package static func decide(
        _ file: ModelFile, metadata: UltralyticsMetadata?, override: Override? = nil
    ) throws -> (layout: YOLOHeadLayout, reason: String) {
        guard let subgraph = file.subgraphs.first else {
            throw VisionCoreError(.invalidArgument, "The model has no subgraph.")
        }
        let outputs = subgraph.outputTensors
        let shapes = outputs.map { "\($0.shape) \($0.type)" }.joined(separator: ", ")
        let input = subgraph.inputTensors.first.flatMap(inputSize)
        let anchors = input.map { anchorCount(height: $0.height, width: $0.width) }
        /// The refusal; `undetermined`: a single [1, A, B] output no rule identifies, which the caller may name.
        func refuse(_ why: String, undetermined: Bool = true) -> VisionCoreError {
            let expected =
                anchors.map { " with N = \($0) anchors for the \(input?.height ?? 0)×\(input?.width ?? 0) input" } ?? ""
            return VisionCoreError(
                .invalidArgument,
                "No YOLO decoder fits this model's outputs (\(shapes.isEmpty ? "none" : shapes)): \(why). A YOLO "
                    + "detector has one output, "
                    + "[1, 4+C, N] or [1, N, 4+C]\(expected), or [1, K, 6] final detections; if it is one of these, "
                    + "name its layout in "
                    + "the detector's YOLO options (head).",
                condition: undetermined ? .yoloLayoutUnknown : nil)
        }
        guard outputs.count == 1, let d = outputs.first?.shape, d.count == 3, d[0] == 1 || d[0] == -1, d[1] > 0,
            d[2] > 0
        else {
            throw refuse(
                outputs.count == 1 ? "the output is not [1, A, B]" : "\(outputs.count) outputs", undetermined: false)
        }
        if let override {
            switch override {
            case .channelsFirst:
                guard d[1] > 4 else { throw refuse("[1, 4+C, N] needs more than 4 rows") }
                return (
                    .channelsFirst(classes: d[1] - 4, anchors: d[2]), "named in the options (head \(override.rawValue))"
                )
            case .channelsLast:
                guard d[2] > 4 else { throw refuse("[1, N, 4+C] needs more than 4 columns") }
                return (
                    .channelsLast(classes: d[2] - 4, anchors: d[1]), "named in the options (head \(override.rawValue))"
                )
            case .endToEnd:
                guard d[2] == 6 else { throw refuse("[1, K, 6] needs 6 columns") }
                return (.endToEnd(detections: d[1]), "named in the options (head \(override.rawValue))")
            }
        }
        let classes = metadata?.names.count
        if metadata?.endToEnd == true, d[2] == 6 {
            return (.endToEnd(detections: d[1]), "Ultralytics' metadata says end2end and the output has 6 columns")
        }
        if let anchors {
            let why =
                "\(anchors) = the anchors of strides 8, 16, 32 over the \(input?.height ?? 0)×\(input?.width ?? 0) "
                + "input"
                + (classes.map { ", \($0) class names in the metadata" } ?? "")
            if d[2] == anchors, d[1] > 4, classes == nil || classes == d[1] - 4 {
                return (.channelsFirst(classes: d[1] - 4, anchors: d[2]), "last dimension " + why)
            }
            if d[1] == anchors, d[2] > 4, classes == nil || classes == d[2] - 4 {
                return (.channelsLast(classes: d[2] - 4, anchors: d[1]), "middle dimension " + why)
            }
        }
        if d[2] == 6, metadata == nil {
            return (.endToEnd(detections: d[1]), "[1, K, 6] and not the anchor count: final detections")
        }
        if let classes, anchors != nil, d[1] == 4 + classes || d[2] == 4 + classes {
            throw refuse("\(classes) class names but not \(anchors ?? 0) anchors")
        }
        throw refuse(
            anchors == nil ? "the input is neither [1, H, W, 3] nor [1, 3, H, W]" : "neither side is the anchor count")
    }

    /// Whether `file` is decoded as a YOLO detector — the one rule the detector, `metadata` and
    /// `bench` share: an override forces it, Ultralytics' metadata claims it, or the single output
    /// fits a layout.
    package static func applies(to file: ModelFile, metadata: UltralyticsMetadata?, override: Override?) -> Bool {
        override != nil || metadata != nil
            || (file.subgraphs.first?.outputTensors.count == 1 && (try? resolve(file, metadata: nil)) != nil)
    }

    /// One line for `inspect`.
    package var summary: String {
        switch self {
        case .channelsFirst(let c, let n):
            return "detection head [1, 4+\(c), \(n)]: centre-size boxes and \(c) class scores per anchor, then NMS"
        case .channelsLast(let c, let n):
            return "detection head [1, \(n), 4+\(c)]: centre-size boxes and \(c) class scores per anchor, then NMS"
        case .endToEnd(let k): return "end to end [1, \(k), 6]: x1, y1, x2, y2, score, class per detection, no NMS"
        }
    }
}
