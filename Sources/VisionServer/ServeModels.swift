import Foundation
import Locking
import MediaPipeTasksVision
import TFLiteModel
import VisionCore
import VisionPipeline

/// The models `serve` knows: registered with `--model NAME=PATH` (or uploaded by a Frigate ZMQ
/// client into `--accept-models`), each found by its name or by its file's name (what Frigate sends
/// as `model_name`); a detector or a classifier, with its input tensor.
package final class ServeModels: Sendable {
    /// One registered model.
    package struct Model: Sendable {
        package enum Kind: String, Sendable {
            case detector, classifier
        }

        package var name: String
        package var path: String
        package var kind: Kind
        /// The input tensor's shape (e.g. `[1, 300, 300, 3]`) and element type (`UINT8`, `FLOAT32`…).
        package var inputShape: [Int]
        package var inputType: String
        /// A detector's class names, in class order (empty for a classifier, or a detector naming none).
        package var labels: [String] = []
        /// The picture size the model takes (width, height).
        package var inputSize: (width: Int, height: Int) = (0, 0)

        /// The file's name (`ssd_mobilenet_v1.tflite`).
        package var fileName: String { (path as NSString).lastPathComponent }

        /// The detector task as the detection services run it — DeepStack's and CodeProject.AI's route, Frigate's
        /// ZMQ detector, and what every worker loads before it is ready: every detection, for the caller
        /// applies its own threshold (`min_confidence`, Frigate's) to the rows.
        package func detectorConfig(threads: Int) -> MediaPipeTaskConfig {
            var config = MediaPipeTaskConfig(modelPath: path)
            config.threads = threads
            config.scoreThreshold = 0
            return config
        }

        /// The key of a worker's task made with ``detectorConfig(threads:)``: one instance per worker,
        /// shared by the detection services, Frigate's ZMQ detector and the warm-up.
        package var detectorTaskKey: String { "detector|" + path }

        /// What `/v1/models` and DeepStack's list say of it.
        package var json: JSONValue {
            .object([
                ("name", .string(name)), ("file", .string(fileName)), ("kind", .string(kind.rawValue)),
                ("input", .array(inputShape.map { .int($0) })), ("inputType", .string(inputType)),
            ])
        }
    }

    private let models: Locked<[Model]>

    /// The models of `specs` (name and path, in the order given), each read and checked.
    package init(_ specs: [(name: String, path: String)]) throws {
        var found: [Model] = []
        for spec in specs {
            let model = try Self.inspect(name: spec.name, path: spec.path)
            guard !found.contains(where: { $0.name == model.name }) else {
                throw ServeError(500, "Two models are named '\(model.name)'.")
            }
            found.append(model)
        }
        models = Locked(found)
    }

    /// Reads what kind of model `path` holds (a detector when the detection head's rule says so)
    /// and its input tensor; a detector is loaded as the tasks load it, for its class names and input size.
    package static func inspect(name: String, path: String) throws -> Model {
        let file = try ModelFile(contentsOfFile: path)
        guard let input = file.subgraphs.first?.inputTensors.first else {
            throw ServeError(500, "\(path): the model has no input tensor")
        }
        var model = Model(
            name: name, path: path, kind: DetectionHead.isDetector(file) ? .detector : .classifier,
            inputShape: input.shape, inputType: input.type.description)
        if model.kind == .detector {
            let detector: ObjectDetector
            do {
                detector = try ObjectDetector(modelPath: path)
            } catch {
                throw ServeError(500, "\(path): the detector cannot be loaded: \(ItemFailure(error).message)")
            }
            model.labels = detector.labelNames
            model.inputSize = detector.modelInputSize
        }
        return model
    }

    /// Every model, in registration order.
    package var all: [Model] { models.withLock { $0 } }

    /// The model named `name` (its registered name first, then its file's name, with or without the
    /// `.tflite` extension).
    package func find(_ name: String) -> Model? {
        let all = all
        return all.first { $0.name == name } ?? all.first { $0.fileName == name }
            ?? all.first { ($0.fileName as NSString).deletingPathExtension == name }
    }

    /// The first model of `kind` (what a route uses when no model is named).
    package func first(_ kind: Model.Kind) -> Model? { all.first { $0.kind == kind } }

    /// Adds `model` (an upload), replacing one of the same name.
    package func add(_ model: Model) {
        models.withLock { models in
            models.removeAll { $0.name == model.name }
            models.append(model)
        }
    }
}
