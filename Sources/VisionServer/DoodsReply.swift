import Foundation
import MediaPipeTasksVision
import ServeProtocol
import VisionPipeline

/// The replies of DOODS2's API, which Home Assistant's `doods` integration calls through `pydoods`:
/// `GET /detectors` lists each served detector (`name`, `type`, `model`, `labels`, `width`,
/// `height`); `POST /detect` answers `detections` — `top`, `left`, `bottom`, `right` as fractions of
/// the picture, `label`, `confidence` 0–100, `region_id` when a region admitted it — best first,
/// filtered as DOODS2 filters them, and `duration` (ms). A successful reply has no `error` field
/// (Home Assistant reads any `error` as a failure); a refusal has `detections: []` and `error`.
package enum DoodsReply {
    /// One detection as DOODS2 reports it.
    package struct Detection: Equatable, Sendable {
        package var top: Double, left: Double, bottom: Double, right: Double
        package var label: String
        /// 0–100.
        package var confidence: Double
        package var regionID: String?
    }

    /// The served detectors as `GET /detectors` lists them; the first one is listed a second time as
    /// `default` (DOODS2's name for the detector a request names none) unless a model has that name.
    package static func detectors(_ models: [ServeModels.Model]) -> JSONValue {
        let detectors = models.filter { $0.kind == .detector }
        var listed = detectors.map { ($0.name, $0) }
        if let first = detectors.first, !detectors.contains(where: { $0.name == DoodsRequest.defaultDetector }) {
            listed.append((DoodsRequest.defaultDetector, first))
        }
        return .object([
            (
                "detectors",
                .array(
                    listed.map { name, model in
                        .object([
                            ("name", .string(name)), ("type", .string("tflite")), ("model", .string(model.fileName)),
                            ("labels", .array(model.labels.map { .string($0) })),
                            ("width", .int(model.inputSize.width)), ("height", .int(model.inputSize.height)),
                        ])
                    })
            )
        ])
    }

    /// The detector a request names: a model of that name, else — for `default` — the first detector.
    package static func detector(_ name: String, in models: ServeModels) -> ServeModels.Model? {
        if let found = models.all.first(where: { $0.name == name && $0.kind == .detector }) { return found }
        return name == DoodsRequest.defaultDetector ? models.first(.detector) : nil
    }

    /// The labels a request's filters name that `model` does not have (`*` names any).
    package static func unknownLabels(_ request: DoodsRequest, model: ServeModels.Model) -> [String] {
        guard !model.labels.isEmpty else { return [] }
        let known = Set(model.labels + ["*"])
        let named = Set(request.detect.keys).union(request.regions.flatMap(\.detect.keys))
        return named.filter { !known.contains($0) }.sorted()
    }

    /// `result`'s detections on a picture of `width` × `height` as DOODS2 filters them: best first;
    /// kept when the request's `detect` admits it (its label's minimum, else `*`'s; `>=`), else by the
    /// first region that contains it (`covers`) or touches it and whose `detect` admits it. No
    /// `detect` and no region admits nothing, as in DOODS2.
    package static func detections(
        _ result: ObjectDetectorResult, width: Int, height: Int, request: DoodsRequest
    ) -> [Detection] {
        let w = Double(max(width, 1))
        let h = Double(max(height, 1))
        var all: [Detection] = []
        for d in result.detections {
            guard let top = d.categories.first else { continue }
            let box = d.boundingBox
            all.append(
                Detection(
                    top: Double(box.minY) / h, left: Double(box.minX) / w, bottom: Double(box.maxY) / h,
                    right: Double(box.maxX) / w, label: top.categoryName ?? top.displayName ?? String(top.index),
                    confidence: Double(top.score) * 100))
        }
        // Stable: equal confidences keep the model's order.
        let sorted = all.enumerated().sorted {
            $0.element.confidence != $1.element.confidence
                ? $0.element.confidence > $1.element.confidence : $0.offset < $1.offset
        }.map(\.element)
        var kept: [Detection] = []
        for var d in sorted {
            if admits(request.detect, d) {
                kept.append(d)
                continue
            }
            for r in request.regions where inside(d, r) && admits(r.detect, d) {
                d.regionID = r.id
                kept.append(d)
                break
            }
        }
        return kept
    }

    private static func admits(_ filter: [String: Double], _ d: Detection) -> Bool {
        if let minimum = filter[d.label] { return d.confidence >= minimum }
        if let minimum = filter["*"] { return d.confidence >= minimum }
        return false
    }

    private static func inside(_ d: Detection, _ r: DoodsRequest.Region) -> Bool {
        r.covers
            ? r.top <= d.top && r.left <= d.left && r.bottom >= d.bottom && r.right >= d.right
            : d.top <= r.bottom && d.left <= r.right && d.bottom >= r.top && d.right >= r.left
    }

    /// A successful `/detect` reply.
    package static func success(id: String?, _ detections: [Detection], durationMs: Double) -> JSONValue {
        .object(
            (id.map { [("id", JSONValue.string($0))] } ?? [])
                + [
                    (
                        "detections",
                        .array(
                            detections.map { d in
                                .object(
                                    [
                                        ("top", .number(d.top)), ("left", .number(d.left)),
                                        ("bottom", .number(d.bottom)), ("right", .number(d.right)),
                                        ("label", .string(d.label)), ("confidence", .number(d.confidence)),
                                    ] + (d.regionID.map { [("region_id", JSONValue.string($0))] } ?? []))
                            })
                    ),
                    ("duration", .int(Int(durationMs.rounded()))),
                ])
    }

    /// A refusal: `detections: []` and the `error`, as DOODS2 answers an unknown detector.
    package static func failure(
        _ status: Int, _ message: String, id: String? = nil, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        .json(
            status,
            .object(
                (id.map { [("id", JSONValue.string($0))] } ?? []) + [
                    ("detections", .array([])), ("error", .string(message)),
                ]), headers: headers)
    }
}
