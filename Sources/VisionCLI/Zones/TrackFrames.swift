import Foundation
import VisionAnalytics
import VisionPipeline

/// Tracked objects frame by frame, read back from `track --jsonl` records (several videos in one
/// file are told apart by their `source`) or from MOTChallenge text (`frame,id,x,y,w,h,…`; one
/// video, timestamps from a frame rate, every object of class "object").
struct TrackFrames {
    struct Frame {
        var number: Int
        var timestampMs: Int
        var objects: [ZoneObject]
    }

    /// One video's frames, in order.
    struct Video {
        var source: String
        var width: Int?
        var height: Int?
        var frames: [Frame]
    }

    var videos: [Video]

    /// Reads `path`: records when it ends in `.jsonl`, else MOT text at `framesPerSecond`.
    static func read(_ path: String, framesPerSecond: Double = 30) throws -> TrackFrames {
        path.hasSuffix(".jsonl") ? try records(path) : try mot(path, framesPerSecond: framesPerSecond)
    }

    static func records(_ path: String) throws -> TrackFrames {
        var videos: [Video] = []
        for (_, record) in try JSONRecords.read(path) {
            // pictures, header and summary lines
            guard let number = (record["frame"] as? NSNumber)?.intValue else { continue }
            let source = record["source"] as? String ?? path
            if videos.last?.source != source || (videos.last?.frames.last?.number ?? 0) >= number {
                videos.append(
                    Video(
                        source: source, width: (record["width"] as? NSNumber)?.intValue,
                        height: (record["height"] as? NSNumber)?.intValue, frames: []))
            }
            let objects = (record["objects"] as? [[String: Any]] ?? []).compactMap { o -> ZoneObject? in
                guard let box = JSONRecords.box(o["frame"]) else { return nil }
                let label = (o["labels"] as? [[String: Any]])?.first?["text"] as? String
                return ZoneObject(
                    trackingID: (o["trackingID"] as? NSNumber)?.intValue, box: box, className: label ?? "object")
            }
            let timestamp =
                (record["timestampMs"] as? NSNumber)?.intValue ?? Int((Double(number - 1) * 1000 / 30).rounded())
            videos[videos.count - 1].frames.append(Frame(number: number, timestampMs: timestamp, objects: objects))
        }
        return TrackFrames(videos: videos)
    }

    static func mot(_ path: String, framesPerSecond: Double) throws -> TrackFrames {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CLIError.usage("cannot read \(path)")
        }
        let boxes: [TrackedBox]
        do { boxes = try MOTFile.read(text) } catch let e as AnalyticsError {
            throw CLIError.usage("\(path): \(e.message)")
        }
        let byFrame = Dictionary(grouping: boxes, by: \.frame)
        let last = boxes.map(\.frame).max() ?? 0
        // Every frame from the first, empty ones included: an absent track ages as in a live run.
        let frames = (min(1, boxes.map(\.frame).min() ?? 1)...max(last, 1)).map { k in
            Frame(
                number: k, timestampMs: Int((Double(k - 1) * 1000 / framesPerSecond).rounded()),
                objects: (byFrame[k] ?? []).map { ZoneObject(trackingID: $0.id, box: $0.box, className: "object") })
        }
        return TrackFrames(videos: boxes.isEmpty ? [] : [Video(source: path, width: nil, height: nil, frames: frames)])
    }

    /// Every box with a tracking ID, for tracking evaluation.
    var trackedBoxes: [TrackedBox] {
        videos.flatMap { v in
            v.frames.flatMap { f in
                f.objects.compactMap { o in o.trackingID.map { TrackedBox(frame: f.number, id: $0, box: o.box) } }
            }
        }
    }
}
