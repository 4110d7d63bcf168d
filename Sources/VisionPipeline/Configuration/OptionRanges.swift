import MediaPipeTasksVision

/// The ranges of the tasks' options, declared once: the command line's options and the server's query
/// arguments both check against them.
package enum OptionRanges {
    /// Inference threads per task (MediaPipe's extension: 1…``BaseOptions/maxThreads``).
    package static let threads = 1...BaseOptions.maxThreads
    /// MediaPipe's `maxResults` (-1: all; 0 is refused, as MediaPipe refuses it).
    package static let maxResults = -1...1_000_000
    /// MediaPipe's `scoreThreshold` (or the word `model`: the model's own threshold).
    package static let scoreThreshold: ClosedRange<Float> = 0...1
    /// ML Kit's confidence thresholds (`label`, `track`).
    package static let confidence: ClosedRange<Float> = 0...1
    /// ML Kit's label counts (≤ 0: its default, 10).
    package static let labelCount = -1_000_000...1_000_000
    /// ML Kit's objects per frame.
    package static let maxObjects = 1...1000
}
