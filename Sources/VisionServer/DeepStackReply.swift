import Foundation
import MediaPipeTasksVision
import VisionPipeline

/// The replies of the DeepStack / CodeProject.AI detection API that Frigate, Home Assistant, Blue Iris
/// and Agent DVR call: `success`, `predictions` (`label`, `confidence`, `x_min`, `y_min`, `x_max`,
/// `y_max` in the picture's whole pixels) sorted by confidence, highest first — Frigate stops at the
/// first under 0.4 and fails past 20 rows —, CodeProject.AI's `count`, `message`, timings and module
/// fields; errors are `{"success": false, "error": …}` with DeepStack's statuses.
package enum DeepStackReply {
    /// DeepStack's default `min_confidence`.
    package static let defaultMinConfidence: Float = 0.4

    /// The detections scoring at least `minConfidence`, best first, at most `limit`.
    package static func predictions(
        _ result: ObjectDetectorResult, minConfidence: Float, limit: Int
    ) -> [(label: String, box: CGRect, score: Float)] {
        var found: [(label: String, box: CGRect, score: Float)] = []
        for d in result.detections {
            guard let top = d.categories.first, top.score >= minConfidence else { continue }
            found.append((top.categoryName ?? top.displayName ?? String(top.index), d.boundingBox, top.score))
        }
        // Stable: equal scores keep the model's order.
        let sorted = found.enumerated().sorted {
            $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
        }
        return sorted.prefix(limit).map(\.element)
    }

    /// A successful reply.
    package static func success(
        _ predictions: [(label: String, box: CGRect, score: Float)], command: String, inferenceMs: Double,
        processMs: Double,
        roundTripMs: Double
    ) -> JSONValue {
        let labels = predictions.map(\.label)
        var unique: [String] = []
        for l in labels where !unique.contains(l) { unique.append(l) }
        return .object(
            [
                ("success", .bool(true)), ("code", .int(200)),
                (
                    "predictions",
                    .array(
                        predictions.map { p in
                            .object([
                                ("label", .string(p.label)), ("confidence", .number(Double(p.score))),
                                ("x_min", .int(Int(p.box.minX))), ("y_min", .int(Int(p.box.minY))),
                                ("x_max", .int(Int(p.box.maxX))), ("y_max", .int(Int(p.box.maxY))),
                            ])
                        })
                ),
                ("count", .int(predictions.count)),
                ("message", .string(unique.isEmpty ? "No objects found" : "Found " + unique.joined(separator: ", "))),
                ("inferenceMs", .int(Int(inferenceMs.rounded()))), ("processMs", .int(Int(processMs.rounded()))),
                ("analysisRoundTripMs", .int(Int(roundTripMs.rounded()))),
            ] + module(command))
    }

    /// CodeProject.AI's version check (`/v1/status/updateavailable`, which Blue Iris polls to tell the
    /// server is up): `version`, `current` and `latest` all this build's, no update.
    package static func updateAvailable(version: String) -> JSONValue {
        let v = versionInfo(version)
        return .object([
            ("success", .bool(true)), ("message", .string("This is the current version")), ("version", v),
            ("current", v), ("latest", v), ("updateAvailable", .bool(false)), ("code", .int(200)),
        ])
    }

    /// CodeProject.AI's ping: `success` and this build's version.
    package static func ping(version: String) -> JSONValue {
        .object([
            ("success", .bool(true)), ("message", .string(version)), ("version", versionInfo(version)),
            ("code", .int(200)),
        ])
    }

    /// A version as CodeProject.AI writes one (`major`, `minor`, `patch`, …).
    static func versionInfo(_ version: String) -> JSONValue {
        let parts = version.split(separator: ".").map { Int($0) ?? 0 } + [0, 0, 0]
        return .object([
            ("major", .int(parts[0])), ("minor", .int(parts[1])), ("patch", .int(parts[2])),
            ("preRelease", .null), ("securityUpdate", .bool(false)), ("build", .int(0)), ("file", .null),
            ("releaseNotes", .null),
        ])
    }

    /// The module fields CodeProject.AI adds to every reply.
    package static func module(_ command: String) -> [(String, JSONValue)] {
        [
            ("moduleId", .string("vision-tasks")), ("moduleName", .string("VisionTasks")),
            ("command", .string(command)),
            ("executionProvider", .string("CPU")), ("inferenceDevice", .string("CPU")), ("canUseGPU", .bool(false)),
        ]
    }

    /// An error reply.
    package static func failure(
        _ status: Int, _ message: String, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        .json(
            status, .object([("success", .bool(false)), ("error", .string(message)), ("code", .int(status))]),
            headers: headers)
    }
}
