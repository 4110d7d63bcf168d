import Foundation
import VisionCore

/// The options MediaPipe's detector and classifier share: running mode and result filtering.
open class VisionTaskOptions: TaskOptions {
    /// Image (default), video or live stream.
    public var runningMode: RunningMode = .image
    /// Locale of the label file used for display names (default "en").
    public var displayNamesLocale: String = "en"
    /// At most this many results (detections, or categories per head); -1 (default) = all; 0 is an error.
    public var maxResults: Int = -1
    /// Keep results scoring at least this (default 0). As on iOS it always applies, in place of any
    /// threshold in the model's metadata, unless ``usesModelScoreThreshold`` is set. YOLO detectors
    /// left at this default use Ultralytics' 0.25 instead (an extension).
    public var scoreThreshold: Float = 0 { didSet { scoreThresholdIsSet = true } }
    /// Whether ``scoreThreshold`` was assigned (YOLO detectors replace the unassigned default).
    var scoreThresholdIsSet = false
    /// Use the threshold in the model's metadata (if any) instead of ``scoreThreshold``, as
    /// MediaPipe's C++ and Python APIs do when no threshold is given (an extension; default false).
    public var usesModelScoreThreshold: Bool = false
    /// Only these label names (mutually exclusive with `categoryDenylist`).
    public var categoryAllowlist: [String] = []
    /// Not these label names.
    public var categoryDenylist: [String] = []
    /// Live stream (a Linux extension): results are read from the task's `liveStreamResults()`
    /// async sequences, so no delegate is required (default false: MediaPipe's rule, a live-stream
    /// task needs a delegate). Sequences work beside a delegate too.
    public var deliversLiveStreamResultsAsynchronously: Bool = false

    /// Default options.
    public required init() {}

    /// An independent copy of the same class with the same option values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone)
        if let c = c as? VisionTaskOptions {
            c.runningMode = runningMode
            c.displayNamesLocale = displayNamesLocale
            c.maxResults = maxResults
            c.scoreThreshold = scoreThreshold
            c.scoreThresholdIsSet = scoreThresholdIsSet
            c.usesModelScoreThreshold = usesModelScoreThreshold
            c.categoryAllowlist = categoryAllowlist
            c.categoryDenylist = categoryDenylist
            c.deliversLiveStreamResultsAsynchronously = deliversLiveStreamResultsAsynchronously
        }
        return c
    }

    /// Checks the options MediaPipe leaves unchecked but that would give silent wrong output or
    /// exhaust the machine: a NaN `scoreThreshold` and a thread count outside 1…256 (code 3).
    func validate() throws {
        if scoreThreshold.isNaN {
            throw TasksError(code: .invalidArgumentError, message: "scoreThreshold must be a number, got nan.")
        }
        let threads = baseOptions.numThreads
        guard (1...BaseOptions.maxThreads).contains(threads) else {
            throw TasksError(
                code: .invalidArgumentError,
                message: "numThreads must be between 1 and \(BaseOptions.maxThreads), got \(threads).")
        }
    }

    /// The core's view of these options.
    var resultOptions: ResultOptions {
        var options = ResultOptions(
            displayNamesLocale: displayNamesLocale, maxResults: maxResults,
            scoreThreshold: usesModelScoreThreshold ? nil : scoreThreshold,
            categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist)
        options.scoreThresholdIsDefault = !scoreThresholdIsSet && !usesModelScoreThreshold
        return options
    }
}
