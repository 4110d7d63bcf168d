import Foundation

/// Options of an image labeler running a custom classifier (`MLKCustomImageLabelerOptions`).
public final class CustomImageLabelerOptions: CommonImageLabelerOptions {
    /// The classifier.
    public let localModel: LocalModel
    /// At most this many labels (default 10; 0 or less means 10).
    public var maxResultCount: Int = 10
    /// CPU threads for inference (an extension; default 1, 1…256).
    public var numThreads: Int = 1

    /// Options for `localModel`.
    public init(localModel: LocalModel) {
        self.localModel = localModel
    }

    /// ML Kit's rules: a threshold outside 0…1 (or NaN) is unset; a count of 0 or less is 10.
    var resolvedThreshold: Float? { CustomClassifier.threshold(confidenceThreshold) }
    var resolvedMaxResultCount: Int { CustomClassifier.count(maxResultCount) }
}
