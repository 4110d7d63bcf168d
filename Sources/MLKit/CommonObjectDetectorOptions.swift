import Foundation

/// Options every object detector has (`MLKCommonObjectDetectorOptions`).
public class CommonObjectDetectorOptions: NSObject {
    /// `.stream` (default): objects are tracked across frames; `.singleImage`: each call stands alone.
    public var detectorMode: ObjectDetectorMode = .stream
    /// false (default): only the most prominent object; true: up to 5 objects (ML Kit's cap; see
    /// ``CustomObjectDetectorOptions/maxObjectCount`` to lift it).
    public var shouldEnableMultipleObjects = false
    /// false (default): objects have no labels; true: each object is classified with the custom model.
    public var shouldEnableClassification = false

    override init() {}
}
