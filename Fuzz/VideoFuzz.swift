// libFuzzer target: video files through the FFmpeg C layer (container probing limited to video
// demuxers, decoding with error detection, colour conversion), up to 24 frames per input.
import CFFmpeg
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzSeeds.writeIfAsked(VideoSeeds.clips)
    vt_video_quiet()
    return 0
}

/// One file per process, rewritten for each input (FFmpeg reads from a path).
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vt-fuzz-video-\(getpid())").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideo(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes: data, count: size)) else { return 0 }
    var err = [CChar](repeating: 0, count: 256)
    var info = vt_video_info()
    var reader: OpaquePointer?
    guard vt_video_open(scratch, 1, 1 << 22, &reader, &info, &err, err.count) == 0, let reader else { return 0 }
    defer { vt_video_close(reader) }
    var rgb: UnsafePointer<UInt8>?
    var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
    var pts: Int64 = 0
    for _ in 0..<24 {
        guard vt_video_next(reader, &rgb, &width, &height, &stride, &pts, &err, err.count) == 0, let rgb else { break }
        // Touch the first and last byte of the frame so ASan checks the buffer's extent.
        let last = Int(stride) * (Int(height) - 1) + Int(width) * 3 - 1
        if rgb[0] &+ rgb[last] == 255 { _ = pts }
    }
    return 0
}
