import CFFmpeg
import Imaging

/// Encodes RGB frames into a video file with FFmpeg's libraries: H.264 (libx264) when FFmpeg has it,
/// else MPEG-4 part 2; the container follows the file's extension (`.mp4`, `.mkv`, `.avi`).
/// Call ``finish()`` to complete the file.
public final class VideoWriter {
    /// Frame width the writer takes, in pixels.
    public let width: Int
    /// Frame height the writer takes, in pixels.
    public let height: Int
    /// The file being written.
    public let path: String
    private var handle: OpaquePointer?

    /// Creates `path` for `width`×`height` frames at `framesPerSecond` (a hint for players; each
    /// frame carries its own timestamp). `quality` is libx264's CRF (0…51, lower is better).
    public init(path: String, width: Int, height: Int, framesPerSecond: Double = 30, quality: Int = 20) throws {
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 1000 else {
            throw VideoError(.invalidArgument, "Frame rate must be between 0 and 1000, got \(framesPerSecond).")
        }
        CFFmpegSetup.once
        self.path = path
        self.width = width
        self.height = height
        let den: Int32 = 1000
        let num = Int32((framesPerSecond * 1000).rounded())
        var err = [CChar](repeating: 0, count: 512)
        var h: OpaquePointer?
        let status = vt_video_writer_open(
            path, Int32(clamping: width), Int32(clamping: height), num, den, Int32(clamping: quality), &h, &err,
            err.count)
        guard status == 0, let h else {
            throw VideoError(status: status, message: "Cannot write video \(path): \(VideoError.text(err)).")
        }
        handle = h
    }

    deinit { vt_video_writer_discard(handle) }

    /// Appends a frame of RGB pixels (row by row from the top, `width × height × 3` bytes, the
    /// writer's size) shown at `timestampMs` (strictly increasing).
    public func write(rgbPixels: [UInt8], timestampMs: Int) throws {
        let bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: width, height: height, format: .rgb8, pixels: rgbPixels)
        } catch let e as ImagingError {
            throw VideoError(.invalidArgument, e.message)
        }
        try write(bitmap, timestampMs: timestampMs)
    }

    /// Appends `bitmap` (converted to RGB when needed; same size as the writer) shown at `timestampMs`
    /// (strictly increasing).
    package func write(_ bitmap: Bitmap, timestampMs: Int) throws {
        guard let handle else { throw VideoError(.invalidArgument, "Video \(path) is already finished.") }
        guard bitmap.width == width, bitmap.height == height else {
            throw VideoError(
                .invalidArgument, "Frame of \(bitmap.width)x\(bitmap.height) given to a \(width)x\(height) video.")
        }
        let rgb = bitmap.format == .rgb8 ? bitmap : bitmap.convertedToRGB()
        var err = [CChar](repeating: 0, count: 512)
        let status = rgb.pixels.withUnsafeBufferPointer { p in
            vt_video_writer_write(handle, p.baseAddress, Int32(rgb.bytesPerRow), Int64(timestampMs), &err, err.count)
        }
        guard status == 0 else {
            throw VideoError(status: status, message: "Cannot write video \(path): \(VideoError.text(err)).")
        }
    }

    /// Flushes the encoder and closes the file.
    public func finish() throws {
        guard let handle else { return }
        self.handle = nil
        var err = [CChar](repeating: 0, count: 512)
        let status = vt_video_writer_finish(handle, &err, err.count)
        guard status == 0 else {
            throw VideoError(status: status, message: "Cannot finish video \(path): \(VideoError.text(err)).")
        }
    }
}
