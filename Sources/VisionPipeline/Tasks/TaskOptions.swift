import MediaPipeTasksVision

/// MediaPipe's task options for another running mode: each task keeps one copy of its options per mode
/// (image for pictures, video for frames, live stream for `--live`).
package enum TaskOptions {
    /// A copy of `options` with `runningMode` set to `mode`.
    package static func copy<Options: VisionTaskOptions>(_ options: Options, mode: RunningMode) throws -> Options {
        guard let o = options.copy() as? Options else { throw PipelineError.failure("cannot copy the task options") }
        o.runningMode = mode
        return o
    }
}
