import Foundation
import MediaPipeTasksVision

/// `detect` and `classify`'s options, parsed once: MediaPipe's task options and, for `classify`,
/// the region of interest.
struct MediaPipeTaskConfig: Sendable {
    var modelPath: String
    /// nil: the task's default (all).
    var maxResults: Int?
    /// nil with `usesModelScoreThreshold`: the model's own threshold.
    var scoreThreshold: Float?
    var usesModelScoreThreshold = false
    var allow: [String] = []
    var deny: [String] = []
    var locale: String?
    var threads = 1
    var fastHybrid = false
    var fastDecode = false
    /// YOLO decoding (detect).
    var yolo = YOLOOptions()
    /// `--jpeg-decoder`; nil: the task's default.
    var jpegDecoding: JPEGDecoding?
    /// Normalized; `.zero`: the whole picture.
    var regionOfInterest = CGRect.zero

    init(modelPath: String) { self.modelPath = modelPath }

    init(_ p: ParsedCommand, regionOfInterest: Bool = false) throws {
        self.init(modelPath: try ModelZoo.resolve(try TaskArguments.requiredModel(p)))
        maxResults = p.int(.maxResults)
        if p.string(.scoreThreshold) == "model" {
            usesModelScoreThreshold = true
        } else if p.has(.scoreThreshold) {
            // Left out, the API's default applies (MediaPipe's 0; Ultralytics' 0.25 for YOLO models).
            scoreThreshold = p.float(.scoreThreshold)
        }
        allow = p.list(.allow)
        deny = p.list(.deny)
        locale = p.string(.locale)
        threads = p.int(.threads) ?? 1
        fastHybrid = p.flag(.fastHybrid)
        fastDecode = p.flag(.fastDecode)
        if regionOfInterest { self.regionOfInterest = try TaskArguments.roi(p) }
        yolo.head = p.string(.head).flatMap(YOLOOptions.Head.init(rawValue:))
        if let iou = p.float(.iou) { yolo.iouThreshold = iou }
        yolo.classAgnostic = p.flag(.agnosticNMS)
        jpegDecoding = p.string(.jpegDecoder).map { $0 == "opencv" ? .openCV : .mediaPipe }
    }

    /// Sets `options`; `defaultMaxResults` when none was given.
    func apply(to options: VisionTaskOptions, defaultMaxResults: Int) {
        options.baseOptions.modelAssetPath = modelPath
        options.maxResults = maxResults ?? defaultMaxResults
        options.usesModelScoreThreshold = usesModelScoreThreshold
        if let scoreThreshold { options.scoreThreshold = scoreThreshold }
        options.categoryAllowlist = allow
        options.categoryDenylist = deny
        if let locale { options.displayNamesLocale = locale }
        options.baseOptions.numThreads = threads
        options.baseOptions.optimizeHybridModels = fastHybrid
    }
}
