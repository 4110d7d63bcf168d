import Foundation
import MediaPipeTasksVision

/// `detect` and `classify`'s options, parsed once: MediaPipe's task options and, for `classify`,
/// the region of interest.
package struct MediaPipeTaskConfig: Sendable {
    package var modelPath: String
    /// nil: the task's default (all).
    package var maxResults: Int?
    /// nil with `usesModelScoreThreshold`: the model's own threshold.
    package var scoreThreshold: Float?
    package var usesModelScoreThreshold = false
    package var allow: [String] = []
    package var deny: [String] = []
    package var locale: String?
    package var threads = 1
    package var fastHybrid = false
    package var fastDecode = false
    /// YOLO decoding (detect).
    package var yolo = YOLOOptions()
    /// `--jpeg-decoder`; nil: the task's default.
    package var jpegDecoding: JPEGDecoding?
    /// Normalized; `.zero`: the whole picture.
    package var regionOfInterest = CGRect.zero

    package init(modelPath: String) { self.modelPath = modelPath }

    /// Sets `options`; `defaultMaxResults` when none was given.
    package func apply(to options: VisionTaskOptions, defaultMaxResults: Int) {
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
