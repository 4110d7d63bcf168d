/// One API object per video: a new one when the video number changes (MediaPipe's video mode
/// needs increasing timestamps, which start again with each video; ML Kit's tracker starts anew).
package struct PerVideo<Value> {
    private var video = -1
    private var value: Value?

    /// The object for `video`, made with `make` when the video changed.
    package mutating func get(_ video: Int, _ make: () throws -> Value) throws -> Value {
        if video != self.video || value == nil {
            value = try make()
            self.video = video
        }
        guard let value else { throw PipelineError.failure("no object for video \(video)") }
        return value
    }

    /// Whether the current object is `video`'s.
    package func holds(_ video: Int) -> Bool { value != nil && self.video == video }

    /// The current object, if any.
    package var current: Value? { value }
}
