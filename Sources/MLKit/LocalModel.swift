import Foundation

/// A model stored on this machine (`MLKLocalModel`): the absolute path of a `.tflite` file.
public final class LocalModel: NSObject, Sendable {
    /// The model file's path.
    public let path: String

    /// A model at `path` (checked when a labeler or detector is created from it).
    public init(path: String) {
        self.path = path
    }
}
