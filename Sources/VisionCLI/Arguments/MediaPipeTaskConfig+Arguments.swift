import Foundation
import MediaPipeTasksVision
import VisionPipeline

/// `detect` and `classify`'s command line.
extension MediaPipeTaskConfig {

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
        threads = try p.value(.threads, as: Int.self)
        fastHybrid = p.flag(.fastHybrid)
        fastDecode = p.flag(.fastDecode)
        if regionOfInterest { self.regionOfInterest = try TaskArguments.roi(p) }
        yolo.head = p.string(.head).flatMap(YOLOOptions.Head.init(rawValue:))
        if let iou = p.float(.iou) { yolo.iouThreshold = iou }
        yolo.classAgnostic = p.flag(.agnosticNMS)
        jpegDecoding = p.string(.jpegDecoder).map { $0 == "opencv" ? .openCV : .mediaPipe }
    }
}
