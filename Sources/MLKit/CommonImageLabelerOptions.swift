import Foundation

/// Options every image labeler has (`MLKCommonImageLabelerOptions`).
public class CommonImageLabelerOptions: NSObject {
    /// Keep labels whose confidence is at least this, in 0…1. nil (default), NaN or out of range:
    /// the threshold in the model's metadata, else 0.
    public var confidenceThreshold: NSNumber?

    override init() {}
}
