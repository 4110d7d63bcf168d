/// How an object detector is used (`MLKObjectDetectorMode`).
public enum ObjectDetectorMode: Int, Sendable {
    /// Still pictures: results come when boxes (and labels) are ready; no tracking IDs.
    case singleImage = 0
    /// Camera or video frames: objects are tracked from frame to frame and get tracking IDs.
    case stream = 1
}
