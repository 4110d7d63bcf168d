import FileInput
import Foundation
import Locking
import MediaPipeTasksVision
import ServeProtocol
import VisionCore
import VisionPipeline

/// Frigate's `zmq` detector (Frigate 0.17+), served on a REP socket: its model handshake
/// (`{"model_request": true, "model_name": …}` → `model_available`, `model_loaded`; `{"model_data":
/// true, "model_name": …}` + the model's bytes → `model_saved`, `model_loaded`, only with
/// `--accept-models`), then tensors: `[{"shape": […], "dtype": "uint8"|"float32", …}, bytes]` of a
/// served detector's input shape (NHWC, or NCHW turned to the model's layout) go straight into the
/// model, and the reply is Frigate's 480 bytes: 20 rows of float32 `[class, score, y_min, x_min, y_max,
/// x_max]` (normalized), best first, zero rows after. A tensor no model takes gets the zero reply
/// Frigate expects and a log line naming the shapes. Every request gets exactly one reply.
package final class FrigateZMQ: Sendable {
    private let models: ServeModels
    private let workers: ServeWorkers
    private let metrics: ServeMetrics
    private let config: ServeConfig
    private let log: @Sendable (String) -> Void
    /// The model the client's handshake named (Frigate sends tensors for it).
    private let current = Locked<String?>(nil)

    /// Frigate's reply rows.
    package static let rows = 20

    package init(
        config: ServeConfig, models: ServeModels, workers: ServeWorkers, metrics: ServeMetrics,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.config = config
        self.models = models
        self.workers = workers
        self.metrics = metrics
        self.log = log
    }

    /// Serves `socket` until `stop` says so (checked at each receive's timeout).
    package func serve(_ socket: ZMQSocket, stop: @Sendable () -> Bool) {
        while !stop() {
            let request: (frames: [[UInt8]], received: Int)?
            do { request = try socket.receive(maxFrames: 3) } catch {
                log("zmq: \(error)")
                continue
            }
            guard let request else { continue }
            let reply = handle(request.frames)
            do { try socket.send(reply) } catch { log("zmq: reply not sent: \(error)") }
        }
    }

    /// The reply to one request's frames.
    package func handle(_ frames: [[UInt8]]) -> [[UInt8]] {
        switch FrigateRequest.parse(frames) {
        case .modelRequest(let name): return [modelRequest(name)]
        case .modelData(let name, let bytes): return [modelData(name, bytes)]
        case let .tensor(shape, dtype, _, bytes): return [tensor(shape, dtype, bytes)]
        case .invalid(let why):
            metrics.zmq(kind: "bad", result: "invalid")
            log("zmq: \(why); answered with no detections")
            return [Self.empty]
        }
    }

    /// Frigate's zero reply: no detections.
    package static let empty = [UInt8](repeating: 0, count: rows * 6 * 4)

    private static func json(_ value: JSONValue) -> [UInt8] { Array(value.text.utf8) }

    private func modelRequest(_ name: String) -> [UInt8] {
        let model = models.find(name)
        if let model, model.kind == .detector { current.withLock { $0 = model.name } }
        let available = model?.kind == .detector
        metrics.zmq(kind: "model_request", result: available ? "available" : "unavailable")
        if !available {
            log(
                "zmq: Frigate asked for model '\(name)', which is not "
                    + "served\(config.acceptModels == nil ? "" : "; it may upload it")"
            )
        }
        return Self.json(
            .object([
                ("model_available", .bool(available)), ("model_loaded", .bool(available)),
                ("model_name", .string(name)),
                (
                    "message",
                    .string(available ? "ready" : "not served: start with --model \(name)=PATH, or --accept-models DIR")
                ),
            ]))
    }

    private func modelData(_ name: String, _ bytes: [UInt8]) -> [UInt8] {
        func reply(_ saved: Bool, _ message: String) -> [UInt8] {
            metrics.zmq(kind: "model_data", result: saved ? "saved" : "refused")
            if !saved { log("zmq: model upload '\(name)' refused: \(message)") }
            return Self.json(
                .object([
                    ("model_saved", .bool(saved)), ("model_loaded", .bool(saved)), ("model_name", .string(name)),
                    ("message", .string(message)),
                ]))
        }
        guard let folder = config.acceptModels else {
            return reply(false, "uploads are refused (start with --accept-models DIR)")
        }
        guard Self.isSafeName(name) else {
            return reply(false, "the model name must be a plain file name ([A-Za-z0-9._-], not starting with '.')")
        }
        guard !bytes.isEmpty, bytes.count <= config.maxModelBytes else {
            return reply(
                false, "the model has \(bytes.count) bytes; accepted: 1 to \(config.maxModelBytes) (--max-model-bytes)")
        }
        // Checked as every model is (flatbuffer and model verifiers, then LiteRT) before a byte is written.
        do {
            _ = try ModelResources(bytes: bytes, source: name)
        } catch {
            return reply(false, "not a model VisionTasks can run: \(error)")
        }
        let target = (folder as NSString).appendingPathComponent(name)
        let temporary = (folder as NSString).appendingPathComponent(".\(name).\(UUID().uuidString).part")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            // A model Frigate cannot use is refused before it takes the name (nothing is left on disk).
            guard try ServeModels.inspect(name: name, path: temporary).kind == .detector else {
                try? FileManager.default.removeItem(atPath: temporary)
                return reply(false, "the model is a classifier; Frigate needs a detector")
            }
            _ = try DetectTask(MediaPipeTaskConfig(modelPath: temporary))
            guard rename(temporary, target) == 0 else {
                try? FileManager.default.removeItem(atPath: temporary)
                return reply(false, "cannot move the upload to \(target) (errno \(errno))")
            }
            let model = try ServeModels.inspect(name: name, path: target)
            models.add(model)
            current.withLock { $0 = model.name }
            log("zmq: model '\(name)' uploaded to \(target) and loaded")
            return reply(true, "saved to \(target)")
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            return reply(false, "\(error)")
        }
    }

    package static func isSafeName(_ name: String) -> Bool {
        (1...255).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95 || c == 46
            }
    }

    /// The element types of numpy's dtype names, as the models name them.
    package static let dtypes = ["uint8": "UINT8", "int8": "INT8", "float32": "FLOAT32"]

    private func tensor(_ shape: [Int], _ dtype: String, _ bytes: [UInt8]) -> [UInt8] {
        let named = current.withLock { $0 }.flatMap { models.find($0) }
        let candidates = ([named].compactMap { $0 } + models.all).filter { $0.kind == .detector }
        guard let type = Self.dtypes[dtype], let (model, planar) = Self.match(shape, type, candidates),
            let input = planar
                ? FrigateRequest.interleave(bytes, shape: shape, elementSize: type == "FLOAT32" ? 4 : 1) : bytes
        else {
            metrics.zmq(kind: "tensor", result: "no_model")
            let served = models.all.filter { $0.kind == .detector }.map {
                "\($0.name) \($0.inputShape) \($0.inputType)"
            }
            log(
                "zmq: no served detector takes a \(dtype) tensor of shape \(shape) (served: "
                    + "\(served.joined(separator: "; "))); "
                    + "answered with no detections")
            return Self.empty
        }
        let height = model.inputShape[1], width = model.inputShape[2]
        let result = Locked<[UInt8]?>(nil)
        let done = DispatchSemaphore(value: 0)
        let config = model.detectorConfig(threads: self.config.threads)
        let metrics = metrics
        let log = log
        let job = ServeWorkers.Job(
            deadline: DispatchTime.now().uptimeNanoseconds + UInt64(self.config.timeoutMs) * 1_000_000,
            run: { tasks in
                do {
                    let task = try tasks.task(model.detectorTaskKey, as: DetectTask.self) { try DetectTask(config) }
                    let detections = try task.detections(inputTensor: input)
                    metrics.inference(model: model.name, seconds: task.lastInferenceSeconds)
                    result.withLock { $0 = Self.rows(detections, width: width, height: height) }
                } catch {
                    log("zmq: the \(model.name) run failed: \(error)")
                }
                done.signal()
            }, expired: { done.signal() })
        guard workers.submit(job) else {
            metrics.zmq(kind: "tensor", result: "queue_full")
            return Self.empty
        }
        done.wait()
        guard let rows = result.withLock({ $0 }) else {
            metrics.zmq(kind: "tensor", result: "failed")
            return Self.empty
        }
        metrics.zmq(kind: "tensor", result: "ok")
        return rows
    }

    /// The model among `candidates` whose input takes a tensor of `shape` and element `type`, and
    /// whether the tensor is planar (NCHW) for an interleaved (NHWC) model.
    package static func match(
        _ shape: [Int], _ type: String, _ candidates: [ServeModels.Model]
    ) -> (ServeModels.Model, Bool)? {
        for model in candidates where model.inputType == type && model.inputShape.count == 4 && shape.count == 4 {
            let m = model.inputShape
            if shape == m { return (model, false) }
            if shape == [m[0], m[3], m[1], m[2]] && (m[3] == 3 || m[3] == 4) { return (model, true) }
        }
        return nil
    }

    /// Frigate's rows for `result` (boxes in a `width`×`height` input): best first, 20 at the most.
    package static func rows(_ result: ObjectDetectorResult, width: Int, height: Int) -> [UInt8] {
        var values = [Float](repeating: 0, count: rows * 6)
        let found = result.detections.compactMap { d in d.categories.first.map { (d.boundingBox, $0) } }
            .enumerated().sorted {
                $0.element.1.score != $1.element.1.score
                    ? $0.element.1.score > $1.element.1.score : $0.offset < $1.offset
            }
        for (i, item) in found.prefix(rows).enumerated() {
            let (box, category) = item.element
            let w = Float(width), h = Float(height)
            let row = [
                Float(category.index), category.score, Float(box.minY) / h, Float(box.minX) / w, Float(box.maxY) / h,
                Float(box.maxX) / w,
            ]
            values.replaceSubrange(i * 6..<(i + 1) * 6, with: row)
        }
        return values.withUnsafeBytes { Array($0) }
    }
}
