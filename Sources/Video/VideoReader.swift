import CFFmpeg
import Imaging
import Locking

/// Decodes a video file (H.264, H.265, VP9, MJPEG … in MP4, MKV, WebM, AVI …) frame by frame with
/// FFmpeg's libraries, giving each frame as RGB pixels with its presentation time in milliseconds.
///
/// A damaged or truncated file gives the frames before the damage, then throws
/// ``VideoError/Code/corruptStream``. Calls are serialized (a reader can be shared), and
/// ``frames(bufferSize:)`` gives the frames as an async sequence decoded ahead on a thread of its own.
///
/// ```swift
/// let reader = try VideoReader(path: "clip.mp4")
/// while let frame = try reader.nextFrame() {
///     guard let picture = UIImage(rgbPixels: frame.rgbPixels, width: frame.width, height: frame.height) else { break }
///     let image = VisionImage(image: picture)
///     image.timestampMs = frame.timestampMs
///     let objects = try detector.results(in: image)
/// }
/// ```
public final class VideoReader: Sequence, Sendable {
    /// The stream's properties.
    public let info: VideoInfo
    /// The path the reader was opened on.
    public let path: String
    /// The decoder (nil once closed) and the frames decoded so far, used one call at a time.
    private let state: Locked<(handle: OpaquePointer?, decoded: Int)>

    /// Frames larger than this many pixels are refused (default: 8192×8192).
    public static let defaultMaxPixels = 8192 * 8192

    /// Opens `path`. `threads` is the decoder's thread count (1 by default; 0 lets FFmpeg choose).
    public convenience init(path: String, threads: Int = 1, maxPixels: Int = VideoReader.defaultMaxPixels) throws {
        try self.init(source: path, live: false, threads: threads, maxPixels: maxPixels)
    }

    /// Opens a live source: a camera (`/dev/video0`, Video4Linux2), a stream URL (`rtsp://`,
    /// `rtmp://`, `srt://`, `udp://`, `http(s)://`, HLS …; a read that stalls 10 s fails), or a
    /// file. Frames come as the source delivers them; pace a file yourself for real time.
    public convenience init(liveSource: String, threads: Int = 1, maxPixels: Int = VideoReader.defaultMaxPixels) throws
    {
        try self.init(source: liveSource, live: true, threads: threads, maxPixels: maxPixels)
    }

    private init(source path: String, live: Bool, threads: Int, maxPixels: Int) throws {
        self.path = path
        guard threads >= 0, threads <= 64 else {
            throw VideoError(.invalidArgument, "Decoder threads must be between 0 and 64, got \(threads).")
        }
        CFFmpegSetup.once
        var err = [CChar](repeating: 0, count: 512)
        var cInfo = vt_video_info()
        var h: OpaquePointer?
        let status =
            live
            ? vt_video_open_live(path, Int32(threads), Int64(maxPixels), &h, &cInfo, &err, err.count)
            : vt_video_open(path, Int32(threads), Int64(maxPixels), &h, &cInfo, &err, err.count)
        guard status == 0, let h else {
            throw VideoError(status: status, message: "Cannot read video \(path): \(VideoError.text(err)).")
        }
        state = Locked((h, 0))
        let codec = withUnsafeBytes(of: cInfo.codec) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        info = VideoInfo(
            width: Int(cInfo.width), height: Int(cInfo.height),
            framesPerSecond: cInfo.fps_num > 0 ? Double(cInfo.fps_num) / Double(cInfo.fps_den) : nil,
            durationMs: cInfo.duration_ms >= 0 ? Int(cInfo.duration_ms) : nil,
            frameCount: cInfo.frame_count > 0 ? Int(cInfo.frame_count) : nil,
            codec: codec)
    }

    deinit { state.withLock { vt_video_close($0.handle) } }

    /// The next frame, or nil at the end of the stream. After an error, every call returns nil.
    public func nextFrame() throws -> VideoFrame? {
        try state.withLock { state in try Self.next(&state.handle, &state.decoded, path: path) }
    }

    private static func next(_ handle: inout OpaquePointer?, _ decoded: inout Int, path: String) throws -> VideoFrame? {
        guard let open = handle else { return nil }
        var rgb: UnsafePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        var pts: Int64 = 0
        var err = [CChar](repeating: 0, count: 512)
        let status = vt_video_next(open, &rgb, &width, &height, &stride, &pts, &err, err.count)
        if status == 1 {
            vt_video_close(open)
            handle = nil
            return nil
        }
        guard status == 0, let rgb else {
            vt_video_close(open)
            handle = nil
            throw VideoError(status: status, message: "Video \(path), after frame \(decoded): \(VideoError.text(err)).")
        }
        let w = Int(width), h = Int(height), s = Int(stride)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeMutableBufferPointer { dst in
            guard let base = dst.baseAddress else { return }
            for y in 0..<h { (base + y * w * 3).update(from: rgb + y * s, count: w * 3) }
        }
        decoded += 1
        let bitmap = try Bitmap(width: w, height: h, format: .rgb8, pixels: pixels)
        return VideoFrame(number: decoded, timestampMs: Int(pts), bitmap: bitmap)
    }

    /// Frames decoded so far.
    public var framesDecoded: Int { state.withLock { $0.decoded } }

    /// Releases the decoder (also done at the end of the stream and on deinit).
    public func close() {
        state.withLock { state in
            vt_video_close(state.handle)
            state.handle = nil
        }
    }

    /// The frames as an async sequence (a Linux extension): `for try await frame in reader.frames()`.
    /// They are decoded ahead on a thread of their own — a live source is never waited for on
    /// Swift's cooperative threads — with at most `bufferSize` frames waiting, so a slow consumer
    /// keeps memory flat. The sequence ends at the end of the stream, or throws the reader's error.
    public func frames(bufferSize: Int = 4) -> VideoFrames { VideoFrames(reader: self, bufferSize: bufferSize) }

    /// Iterates the frames; an error ends the iteration (use ``nextFrame()`` to see it).
    public func makeIterator() -> AnyIterator<VideoFrame> {
        AnyIterator { [self] in try? nextFrame() }
    }
}

/// Process-wide FFmpeg set-up, done once: FFmpeg's own logging is silenced (errors come back as
/// messages).
enum CFFmpegSetup {
    static let once: Void = { vt_video_quiet() }()
}
