import Foundation
import Imaging
import Testing
import Video
import VisionTestSupport

/// The FFmpeg reader and writer on the shared clip and on files written here: frame counts,
/// container timestamps, pixels, and damaged or truncated files.
@Suite("Video files", .enabled(if: TestAssets.shouldRun))
struct VideoTests {
    static func temporary(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vt-\(UUID().uuidString).\(ext)").path
    }

    @Test("car-detection.mp4: 377 H.264 frames of 768x432 at 12.5 fps, timestamps 0…30080 ms every 80 ms")
    func sharedClip() throws {
        let reader = try VideoReader(path: TestAssets.image("car-detection.mp4"))
        #expect(reader.info.width == 768 && reader.info.height == 432 && reader.info.codec == "h264")
        #expect(reader.info.framesPerSecond == 12.5 && reader.info.frameCount == 377)
        var timestamps: [Int] = []
        var numbers: [Int] = []
        while let frame = try reader.nextFrame() {
            timestamps.append(frame.timestampMs)
            numbers.append(frame.number)
            #expect(frame.bitmap.width == 768 && frame.bitmap.height == 432 && frame.bitmap.format == .rgb8)
        }
        #expect(timestamps.count == 377)
        #expect(numbers == Array(1...377))
        #expect(timestamps == (0..<377).map { $0 * 80 })
        #expect(try reader.nextFrame() == nil)  // stays at the end
    }

    @Test(
        """
        frames() as an async sequence: the same 377 frames in order, pixels equal; a truncated file throws after its \
        frames
        """
    )
    func asyncFrames() async throws {
        let path = TestAssets.image("car-detection.mp4")
        let sync = try VideoReader(path: path)
        var checksums: [Int] = []
        while let frame = try sync.nextFrame() {
            checksums.append(frame.bitmap.pixels.prefix(4096).reduce(0) { $0 &* 31 &+ Int($1) })
        }
        var numbers: [Int] = []
        var index = 0
        for try await frame in try VideoReader(path: path).frames(bufferSize: 3) {
            numbers.append(frame.number)
            #expect(frame.timestampMs == index * 80)
            #expect(frame.bitmap.pixels.prefix(4096).reduce(0) { $0 &* 31 &+ Int($1) } == checksums[index])
            index += 1
        }
        #expect(numbers == Array(1...377))

        // Leaving the loop early stops the decoding thread (the reader is not read to its end).
        let reader = try VideoReader(path: path)
        for try await frame in reader.frames(bufferSize: 2) where frame.number == 5 { break }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(reader.framesDecoded >= 5 && reader.framesDecoded <= 8)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = Self.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: cut) }
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        var before = 0
        do {
            for try await _ in try VideoReader(path: cut).frames() { before += 1 }
            Issue.record("a truncated file ended without an error")
        } catch let e as VideoError {
            #expect(e.code == .corruptStream)
        }
        #expect(before > 150 && before < 377)
    }

    @Test("written frames read back: count, timestamps, colours (H.264 in MP4 and MKV)")
    func roundTrip() throws {
        for ext in ["mp4", "mkv"] {
            let path = Self.temporary(ext)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try VideoWriter(path: path, width: 64, height: 48, framesPerSecond: 25, quality: 10)
            let colours: [(UInt8, UInt8, UInt8)] = [(200, 30, 30), (30, 200, 30), (30, 30, 200)]
            for i in 0..<15 {
                try writer.write(
                    try Bitmap(width: 64, height: 48, format: .rgb8, fill: colours[i % 3]), timestampMs: i * 40)
            }
            try writer.finish()
            let reader = try VideoReader(path: path)
            var frames: [VideoFrame] = []
            while let f = try reader.nextFrame() { frames.append(f) }
            #expect(frames.count == 15)
            #expect(frames.map(\.timestampMs) == (0..<15).map { $0 * 40 })
            for (i, f) in frames.enumerated() {
                let (r, g, b) = f.bitmap.rgb(x: 32, y: 24)
                let want = colours[i % 3]
                #expect(
                    abs(Int(r) - Int(want.0)) <= 6 && abs(Int(g) - Int(want.1)) <= 6 && abs(Int(b) - Int(want.2)) <= 6,
                    "\(ext) frame \(i): (\(r), \(g), \(b)) for \(want)")
            }
        }
    }

    /// Encodes FFmpeg's 64x48 test pattern (10 frames at 10 fps) with the `ffmpeg` program.
    static func encoded(_ codec: String, _ ext: String, pixelFormat: String = "yuv420p") throws -> String {
        let path = temporary(ext)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-frames:v", "10",
            "-c:v", codec, "-pix_fmt", pixelFormat,
        ]
        // libx265 logs on its own, past -v: its messages are kept for a failure, not the test log.
        process.arguments? += (codec == "libx265" ? ["-x265-params", "log-level=error"] : []) + [path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError("ffmpeg could not encode \(codec): \(said)")
        }
        return path
    }

    @Test("H.265, VP9, MJPEG and H.264 files decode: 10 frames, timestamps 0…900 ms, the test pattern's colours")
    func codecs() throws {
        let reference = try Self.encoded("rawvideo", "nut", pixelFormat: "rgb24")
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let exact = try VideoReader(path: reference)
        var patterns: [Bitmap] = []
        while let f = try exact.nextFrame() { patterns.append(f.bitmap) }
        #expect(patterns.count == 10)
        for (codec, ext, format, name) in [
            ("libx265", "mp4", "yuv420p", "hevc"), ("libvpx-vp9", "webm", "yuv420p", "vp9"),
            ("mjpeg", "avi", "yuvj420p", "mjpeg"), ("libx264", "mkv", "yuv420p", "h264"),
        ] {
            let path = try Self.encoded(codec, ext, pixelFormat: format)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try VideoReader(path: path)
            #expect(reader.info.codec == name && reader.info.width == 64 && reader.info.height == 48)
            var frames: [VideoFrame] = []
            while let f = try reader.nextFrame() { frames.append(f) }
            #expect(frames.map(\.timestampMs) == (0..<10).map { $0 * 100 }, "\(codec)")
            // Lossy and 4:2:0 on a 64x48 pattern of sharp colour edges, but the same picture: mean absolute
            // difference under 20 levels (the pattern flipped upside down differs by 88).
            for (f, p) in zip(frames, patterns) {
                var total = 0
                for y in 0..<48 {
                    for x in 0..<64 {
                        let a = f.bitmap.rgb(x: x, y: y), b = p.rgb(x: x, y: y)
                        total += abs(Int(a.0) - Int(b.0)) + abs(Int(a.1) - Int(b.1)) + abs(Int(a.2) - Int(b.2))
                    }
                }
                #expect(Double(total) / Double(64 * 48 * 3) < 20, "\(codec) frame \(f.number)")
            }
        }
    }

    @Test("a truncated file gives the frames before the cut, then corruptStream")
    func truncated() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestAssets.image("car-detection.mp4")))
        let path = Self.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.prefix(data.count * 6 / 10).write(to: URL(fileURLWithPath: path))
        let reader = try VideoReader(path: path)
        var count = 0
        do {
            while try reader.nextFrame() != nil { count += 1 }
            Issue.record("the truncated file ended without an error after \(count) frames")
        } catch let e as VideoError {
            #expect(e.code == .corruptStream && e.message.contains("truncated"))
        }
        #expect(count > 150 && count < 377)
        #expect(try reader.nextFrame() == nil)
    }

    @Test("damaged bytes give the frames before the damage, then corruptStream; no crash")
    func damaged() throws {
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestAssets.image("car-detection.mp4"))))
        var seed: UInt64 = 7
        for _ in 0..<200 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let p = data.count / 2 + Int(seed >> 33) % (data.count / 2)
            data[p] ^= 0xFF
        }
        let path = Self.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(data).write(to: URL(fileURLWithPath: path))
        let reader = try VideoReader(path: path)
        var count = 0
        do {
            while try reader.nextFrame() != nil { count += 1 }
            Issue.record("the damaged file ended without an error after \(count) frames")
        } catch let e as VideoError {
            #expect(e.code == .corruptStream)
        }
        #expect(count > 100)
    }

    @Test("files that are not videos, missing files, bad writer arguments: typed errors")
    func errors() throws {
        let text = Self.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: text) }
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: text))
        for path in [text, "/nonexistent/clip.mp4", TestAssets.image("dog.jpg") + ".missing"] {
            do { _ = try VideoReader(path: path); Issue.record("\(path) opened") } catch let e as VideoError {
                #expect(e.code == .cannotOpen && e.message.hasPrefix("Cannot read video \(path): "))
            }
        }
        // A playlist naming another file is not followed (only video containers, only local files).
        let playlist = Self.temporary("m3u8")
        defer { try? FileManager.default.removeItem(atPath: playlist) }
        try Data(
            ("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n"
                + "file://\(TestAssets.image("car-detection.mp4"))\n#EXT-X-ENDLIST\n")
                .utf8
        )
        .write(to: URL(fileURLWithPath: playlist))
        do { _ = try VideoReader(path: playlist); Issue.record("the playlist was followed") } catch let e as VideoError
        {
            #expect(e.code == .cannotOpen)
        }
        // A picture with no video stream at all (a PNG is a one-frame "video" for FFmpeg: allowed).
        do {
            _ = try VideoReader(path: TestAssets.image("car-detection.mp4"), threads: 99);
            Issue.record("99 threads accepted")
        } catch let e as VideoError {
            #expect(e.code == .invalidArgument)
        }
        do {
            _ = try VideoReader(path: TestAssets.image("car-detection.mp4"), maxPixels: 1000);
            Issue.record("limit ignored")
        } catch let e as VideoError {
            #expect(e.code == .tooLarge && e.message.contains("768x432"))
        }
        let out = Self.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(throws: VideoError.self) { _ = try VideoWriter(path: out, width: 0, height: 10) }
        #expect(throws: VideoError.self) {
            _ = try VideoWriter(path: out, width: 10, height: 10, framesPerSecond: .nan)
        }
        #expect(throws: VideoError.self) {
            _ = try VideoWriter(path: "/nonexistent/dir/out.mp4", width: 16, height: 16)
        }
        let writer = try VideoWriter(path: out, width: 16, height: 16)
        try writer.write(try Bitmap(width: 16, height: 16), timestampMs: 10)
        do {
            try writer.write(try Bitmap(width: 16, height: 16), timestampMs: 10);
            Issue.record("equal timestamps accepted")
        } catch let e as VideoError {
            #expect(e.code == .invalidArgument && e.message.contains("must increase"))
        }
        #expect(throws: VideoError.self) { try writer.write(try Bitmap(width: 8, height: 16), timestampMs: 20) }
        try writer.finish()
        #expect(throws: VideoError.self) { try writer.write(try Bitmap(width: 16, height: 16), timestampMs: 30) }
    }
}
