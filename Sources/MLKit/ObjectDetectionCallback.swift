/// The completion of ``ObjectDetector/process(_:completion:)``: objects, or the error.
public typealias ObjectDetectionCallback = ([Object]?, Error?) -> Void
