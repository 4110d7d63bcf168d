// Seeds for the video target: tiny clips in each container and codec the reader takes, made with
// the `ffmpeg` program, and the start of the shared car-detection.mp4.
import Foundation

enum VideoSeeds {
    static func clips() -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        let encodings = [("libx264", "mp4"), ("libx264", "mkv"), ("libx265", "mp4"), ("libvpx-vp9", "webm"), ("mjpeg", "avi"),
                         ("mpeg2video", "ts"), ("libx264", "flv")]
        for (codec, ext) in encodings {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-seed-\(getpid()).\(ext)").path
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=48x32:rate=10", "-frames:v", "6",
                           "-c:v", codec, "-pix_fmt", codec == "mjpeg" ? "yuvj420p" : "yuv420p", path]
            guard (try? p.run()) != nil else { continue }
            p.waitUntilExit()
            if p.terminationStatus == 0, let bytes = FuzzSeeds.file(path) { seeds.append(("\(codec).\(ext)", bytes)) }
            try? FileManager.default.removeItem(atPath: path)
        }
        if let car = FuzzSeeds.file(FuzzSeeds.assets + "/images/car-detection.mp4") {
            seeds.append(("car-start.mp4", Array(car.prefix(200_000))))
        }
        return seeds
    }
}
