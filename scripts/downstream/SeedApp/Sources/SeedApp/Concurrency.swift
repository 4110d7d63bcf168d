import Foundation
import MLKit
import MediaPipeTasksVision
import Synchronization
import Video

// The APIs from Swift 6 concurrency: a detector shared by Tasks, owned by an actor, called from a
// DispatchQueue; ML Kit's async forms; live-stream results and video frames as async sequences.
// Each must give the single-caller results.

/// An actor that owns a detector, as an app's service would.
actor DetectionService {
    private let objectDetector: MediaPipeTasksVision.ObjectDetector

    init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.maxResults = 5
        objectDetector = try MediaPipeTasksVision.ObjectDetector(options: options)
    }

    /// The detections as JSON text (a Sendable value leaves the actor).
    func detections(_ photo: String) throws -> String {
        guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
        return try JSON.text(Output.detections(try objectDetector.detect(image: MPImage(uiImage: uiImage)).detections))
    }

    /// ML Kit's async form, called from inside the actor with an image the actor made.
    func labels(_ photo: String, _ imageLabeler: ImageLabeler) async throws -> [String] {
        guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
        let image = VisionImage(image: uiImage)
        return try await imageLabeler.process(image).map { "\($0.index)" }
    }
}

enum Concurrency {
    static func check(
        photos: [String], expected000: [[String: Any]], expected004: [[String: Any]], video: String?
    ) async throws -> sending [String: Any] {
        guard let modelPath = Bundle.module.path(forResource: "model", ofType: "tflite") else {
            throw AppError("no model resource")
        }
        let photo = photos[0]
        let expected = try JSON.text(expected000[0]["detections"] ?? [])

        // One detector shared by 4 Tasks.
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.maxResults = 5
        let shared = try MediaPipeTasksVision.ObjectDetector(options: options)
        let fromTasks = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
                    return try JSON.text(
                        Output.detections(try shared.detect(image: MPImage(uiImage: uiImage)).detections))
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        guard fromTasks.allSatisfy({ $0 == expected }) else {
            throw AppError("4 Tasks sharing a detector disagree with one caller")
        }

        // The same detector from a DispatchQueue's threads.
        let queue = DispatchQueue(label: "workers", attributes: .concurrent)
        let group = DispatchGroup()
        let mismatches = Counter()
        for _ in 0..<4 {
            queue.async(group: group) {
                let same =
                    (try? UIImage(contentsOfFile: photo).map {
                        try JSON.text(Output.detections(try shared.detect(image: MPImage(uiImage: $0)).detections))
                    })
                    == expected
                if !same { mismatches.add() }
            }
        }
        group.wait()
        guard mismatches.value == 0 else { throw AppError("DispatchQueue callers disagree with one caller") }

        // An actor that owns one, called from Tasks.
        let service = try DetectionService(modelPath: modelPath)
        let fromActor = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<2 { group.addTask { try await service.detections(photo) } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        guard fromActor.allSatisfy({ $0 == expected }) else {
            throw AppError("the actor's detector disagrees with one caller")
        }

        // ML Kit's async forms: `try await imageLabeler.process(image)`, from a Task and from the actor.
        let imageLabeler = try Seed004.labeler()
        let expectedLabels = (expected004[0]["labels"] as? [[String: Any]] ?? []).map { "\($0["index"] ?? "")" }
        let fromTask = try await Task {
            guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
            return try await imageLabeler.process(VisionImage(image: uiImage)).map { "\($0.index)" }
        }.value
        let fromService = try await service.labels(photo, imageLabeler)
        guard fromTask == expectedLabels, fromService == expectedLabels else {
            throw AppError("ML Kit's async process(_:) disagrees with results(in:)")
        }
        guard let classifierPath = Bundle.module.path(forResource: "classifier", ofType: "tflite") else {
            throw AppError("no classifier resource")
        }
        let detectorOptions = CustomObjectDetectorOptions(localModel: LocalModel(path: classifierPath))
        detectorOptions.detectorMode = .singleImage
        let mlkitDetector = MLKit.ObjectDetector.objectDetector(options: detectorOptions)
        guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
        let asyncObjects = try await mlkitDetector.process(VisionImage(image: uiImage)).map { "\($0.frame)" }
        guard asyncObjects == (try mlkitDetector.results(in: VisionImage(image: uiImage))).map({ "\($0.frame)" }),
            !asyncObjects.isEmpty
        else {
            throw AppError("ML Kit's async process(_:) for objects disagrees with results(in:)")
        }

        // Live-stream results as an async sequence, read by a Task while frames are handed over.
        let liveOptions = ObjectDetectorOptions()
        liveOptions.baseOptions.modelAssetPath = modelPath
        liveOptions.maxResults = 5
        liveOptions.runningMode = .liveStream
        liveOptions.deliversLiveStreamResultsAsynchronously = true
        let live = try MediaPipeTasksVision.ObjectDetector(options: liveOptions)
        let results = try live.liveStreamResults()
        let reader = Task {
            var got: [String] = []
            for await result in results { got.append(try JSON.text(Output.detections(try result.get().detections))) }
            return got
        }
        let frame = try MPImage(uiImage: uiImage)
        for t in 0..<5 {
            try live.detectAsync(image: frame, timestampInMilliseconds: t * 40)
            live.waitUntilIdle()
        }
        live.finishLiveStreamResults()
        let streamed = try await reader.value
        guard streamed.count == 5, streamed.allSatisfy({ $0 == expected }) else {
            throw AppError("live-stream async results: \(streamed.count) of 5, or different")
        }

        // Video frames as an async sequence.
        var frames = 0
        if let video {
            for try await frame in try VideoReader(path: video).frames() {
                frames += 1
                if frame.number != frames { throw AppError("video frames out of order") }
            }
        }
        return [
            "seed": "concurrency", "tasks": fromTasks.count, "dispatch": 4, "actor": fromActor.count,
            "asyncLabels": fromTask.count, "liveStream": streamed.count, "videoFrames": frames,
            "seed000LiveTimestamps": try Seed000.liveStream(photo: photo),
            "seed001LiveSetUp": try Seed001.liveStreamSetUp(),
        ]
    }
}

/// A count shared by DispatchQueue workers.
final class Counter: Sendable {
    private let count = Atomic(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
