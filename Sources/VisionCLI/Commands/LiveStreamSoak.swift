import FileInput
import Foundation
import Locking
import MediaPipeTasksVision
import VisionPipeline

/// `soak --live --image PICTURE`: MediaPipe's live-stream flow control under pressure, in a process
/// of its own — `--cycles` frames sent at about four times the detector's processing rate — and the
/// process's resident memory at the 200th frame and at the end (a leak check no other code can
/// disturb), with what was delivered and dropped.
enum LiveStreamSoak {
    /// Collects the detector's callbacks.
    private final class Receiver: NSObject, ObjectDetectorLiveStreamDelegate, Sendable {
        struct Received {
            var timestamps: [Int] = []
            var errors = 0
        }
        let received = Locked(Received())

        func objectDetector(
            _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?,
            timestampInMilliseconds: Int, error: Error?
        ) {
            received.withLock {
                $0.timestamps.append(timestampInMilliseconds)
                if error != nil || result == nil { $0.errors += 1 }
            }
        }
    }

    static func run(model: String, image imagePath: String, frames: Int, console: Console) throws {
        let receiver = Receiver()
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = model
        options.runningMode = .liveStream
        options.objectDetectorLiveStreamDelegate = receiver
        let detector = try ObjectDetector(options: options)
        let image = try MPImage(contentsOfFile: imagePath)
        // One frame alone gives the processing time; then four frames per processing time.
        let t0 = Date()
        try detector.detectAsync(image: image, timestampInMilliseconds: 0)
        detector.waitUntilIdle()
        let interval = max(Date().timeIntervalSince(t0) / 4, 0.001)
        var memoryAt200 = 0
        for i in 1...frames {
            try detector.detectAsync(image: image, timestampInMilliseconds: i * 10)
            if i == min(200, frames) { memoryAt200 = ProcessMemory.residentBytes() }
            Thread.sleep(forTimeInterval: interval)
        }
        detector.waitUntilIdle()
        let after = ProcessMemory.residentBytes()
        let received = receiver.received.withLock { $0 }
        let stream = received.timestamps.dropFirst()  // the timing frame
        let ordered = stream.elementsEqual(stream.sorted()) && Set(stream).count == stream.count
        console.out(
            JSONValue.object([
                ("frames", .int(frames)), ("delivered", .int(stream.count)),
                ("dropped", .int(detector.droppedFrameCount)),
                ("ordered", .bool(ordered)), ("lastTimestamp", .int(stream.last ?? -1)),
                ("errors", .int(received.errors)),
                ("rss_at_200", .int(memoryAt200)), ("rss_after", .int(after)),
            ]).text)
    }
}
