import Foundation
import Imaging
import Video

/// `--output`: annotated pictures and videos. One picture given and a `.jpg`/`.png` target: that
/// file. Otherwise a folder, mirroring the inputs' relative paths (`a/b.jpg` → `DIR/a/b_detect.jpg`,
/// `clip.mp4` → `DIR/clip_detect.mp4`, H.264).
package final class AnnotatedOutput {
    package let target: String
    package let singleFile: Bool
    package let task: String
    private var video: VideoWriter?
    package private(set) var written: [String] = []

    package init(target: String, items: [InputItem], task: String) throws {
        self.target = target
        self.task = task
        let ext = (target as NSString).pathExtension.lowercased()
        let pictureTarget = InputCollector.pictureExtensions.contains(ext),
            videoTarget = InputCollector.videoExtensions.contains(ext)
        singleFile =
            items.count == 1
            && ((items.first?.kind == .picture && pictureTarget) || (items.first?.kind == .video && videoTarget))
        if !singleFile {
            if pictureTarget || videoTarget {
                throw PipelineError.usage(
                    "--output \(target) names a file, but the inputs are "
                        + "\(items.count == 1 ? "of another kind" : "\(items.count) items"): give a folder"
                )
            }
            do { try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true) } catch {
                throw PipelineError.failure("cannot create the output folder \(target): \(error.localizedDescription)")
            }
        }
    }

    /// Where the annotated version of `item` goes, with `ext`.
    package func path(for item: InputItem, ext: String) throws -> String {
        if singleFile { return target }
        let parts = item.relativePath.split(separator: "/").filter { $0 != "." && $0 != ".." && !$0.isEmpty }
        let relative = parts.joined(separator: "/")
        let base = ((relative.isEmpty ? "input" : relative) as NSString).deletingPathExtension + "_\(task).\(ext)"
        let full = (target as NSString).appendingPathComponent(base)
        let folder = (full as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw PipelineError.failure("cannot create \(folder): \(error.localizedDescription)")
        }
        return full
    }

    /// Writes the annotated picture.
    package func picture(_ item: InputItem, _ annotated: Bitmap) throws {
        let path = try path(for: item, ext: singleFile ? (target as NSString).pathExtension : "jpg")
        try ImageEncoder.write(annotated, to: path)
        written.append(path)
    }

    /// Adds an annotated frame to the item's video (opened at its first frame).
    package func frame(_ item: InputItem, _ annotated: Bitmap, timestampMs: Int, framesPerSecond: Double) throws {
        if video == nil {
            let path = try path(for: item, ext: singleFile ? (target as NSString).pathExtension : "mp4")
            video = try VideoWriter(
                path: path, width: annotated.width, height: annotated.height, framesPerSecond: framesPerSecond)
            written.append(path)
        }
        try video?.write(annotated, timestampMs: timestampMs)
    }

    /// Finishes the current video, if any.
    package func endVideo() throws {
        defer { video = nil }
        try video?.finish()
    }
}
