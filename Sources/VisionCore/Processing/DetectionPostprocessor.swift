import Imaging
import LiteRT
import TFLiteModel

/// Turns a detector's output tensors into boxes and categories, with MediaPipe's checks and
/// semantics: labels and display names from metadata, score calibration, thresholds, allow/deny
/// lists by label name, `maxResults`, boxes projected back to the stored image, truncated to
/// whole pixels and clamped, identical boxes merged.
///
/// Two model kinds: detections from the in-model `TFLite_Detection_PostProcess` op (4 outputs:
/// locations, classes, scores, count), and raw SSD outputs (2: locations, scores) decoded with the
/// model's `DETECTOR_METADATA` and non-maximum suppression.
package struct DetectionPostprocessor: Sendable {
    /// Output positions: location, category, score, count (the raw path uses location and score).
    package let locationIndex: Int, categoryIndex: Int, scoreIndex: Int, countIndex: Int
    /// Set for raw SSD models.
    package let rawDecoder: RawSSDDecoder?
    /// Positions of left, top, right, bottom within each box.
    package let boxOrder: [Int]
    /// Labels, calibration (in-model path only), threshold, allow/deny lists.
    package let rules: OutputHeadRules
    package let maxResults: Int
    package let maxClassesPerDetection: Int

    /// Checks the model's outputs and metadata and builds the post-processing, in MediaPipe's order.
    package init(resources: ModelResources, options: DetectorOptions) throws {
        let outputs = resources.file.subgraphs[0].outputTensors
        guard outputs.count == 4 || outputs.count == 2 else {
            throw VisionCoreError(
                .invalidArgument, "Expected a model with 2 or 4 output tensors, found \(outputs.count).")
        }
        let outMeta = resources.subgraphMetadata?.outputTensors ?? []
        guard outMeta.count == 4 || outMeta.count == 2 else {
            throw VisionCoreError(
                .invalidArgument, "Expected a model with 2 or 4 output tensors metadata, found \(outMeta.count).")
        }
        try OutputHeadRules.checkTypes(outputs, allowingBool: false)
        let raw = outputs.count == 2
        guard outMeta.count == outputs.count else {
            throw VisionCoreError(
                .invalidArgument,
                "Mismatch between number of output tensors (\(outputs.count)) and output tensors metadata "
                    + "(\(outMeta.count))."
            )
        }
        // Output positions by metadata name, else the defaults.
        let names = outMeta.map { $0.name ?? "" }
        if raw {
            if let l = names.firstIndex(of: "location"), let s = names.firstIndex(of: "score") {
                (locationIndex, scoreIndex) = (l, s)
            } else {
                (locationIndex, scoreIndex) = (0, 1)
            }
            (categoryIndex, countIndex) = (scoreIndex, -1)
        } else if let l = names.firstIndex(of: "location"), let c = names.firstIndex(of: "category"),
            let s = names.firstIndex(of: "score"), let n = names.firstIndex(of: "number of detections")
        {
            (locationIndex, categoryIndex, scoreIndex, countIndex) = (l, c, s, n)
        } else {
            (locationIndex, categoryIndex, scoreIndex, countIndex) = (0, 1, 2, 3)
        }
        // Both kinds need BoundingBoxProperties on the location tensor.
        let locationMeta = outMeta[locationIndex]
        guard let props = locationMeta.content?.properties else {
            throw VisionCoreError(
                .invalidArgument, "Expected BoundingBoxProperties for tensor \(locationMeta.name ?? "#0"), found none.")
        }
        guard case let .boundingBox(index, type, coordinates) = props else {
            throw VisionCoreError(
                .invalidArgument,
                "Expected BoundingBoxProperties for tensor \(locationMeta.name ?? "#0"), found "
                    + "\(ImageTensorSpec.contentName(props))."
            )
        }
        guard type == .boundaries else {
            throw VisionCoreError(
                .invalidArgument, "Mobile SSD only supports BoundingBoxType BOUNDARIES, found \(Self.name(type))")
        }
        guard coordinates == .ratio else {
            throw VisionCoreError(.invalidArgument, "Mobile SSD only supports CoordinateType RATIO, found PIXEL")
        }
        if index.isEmpty {
            boxOrder = [0, 1, 2, 3]
        } else {
            guard index.count == 4 else {
                throw VisionCoreError(
                    .invalidArgument, "Expected BoundingBoxProperties index to contain 4 values, found \(index.count)")
            }
            guard index.allSatisfy({ $0 < 4 }) else {
                throw VisionCoreError(
                    .invalidArgument, "BoundingBoxProperties index values must be 0…3, found \(index).")
            }
            boxOrder = index.map(Int.init)
        }
        // Labels: value labels on the category tensor (in-model NMS), axis labels on the score tensor
        // (raw); calibration and threshold from the score tensor (raw SSD models are not calibrated).
        rules = try OutputHeadRules(
            labelsFrom: outMeta[categoryIndex], labelType: raw ? .tensorAxisLabels : .tensorValueLabels,
            scoresFrom: outMeta[scoreIndex], calibrated: !raw, options: options, resources: resources)
        if raw {
            guard
                let custom = resources.subgraphMetadata?.customMetadata.first(where: {
                    $0.name == DetectorMetadata.name
                })
            else {
                throw VisionCoreError(
                    .invalidArgument, "TensorsDecodingOptions is not found in the object detector metadata.")
            }
            let detector: DetectorMetadata
            do { detector = try DetectorMetadata(flatBuffer: custom.data) } catch let e as TFLiteModelError {
                throw ModelResources.map(e)
            }
            let count = { (t: Tensor) in t.shape.reduce(1, *) }
            rawDecoder = try RawSSDDecoder(
                metadata: detector, boxesCount: count(outputs[locationIndex]), scoresCount: count(outputs[scoreIndex]))
        } else {
            rawDecoder = nil
        }
        maxResults = options.maxResults
        maxClassesPerDetection = max(
            1, (try? resources.file.detectionPostProcessOptions())??.maxClassesPerDetection ?? 1)
    }

    static func name(_ t: ModelMetadata.BoundingBoxType) -> String {
        switch t {
        case .unknown: return "UNKNOWN"
        case .boundaries: return "BOUNDARIES"
        case .upperLeft: return "UPPER_LEFT"
        case .center: return "CENTER"
        }
    }

    /// The detections in the outputs of `model`, for a picture of `imageWidth`×`imageHeight` stored
    /// pixels shown with `orientation`.
    package func process(
        _ model: ModelOutputs, imageWidth: Int, imageHeight: Int, orientation: ImageOrientation
    ) throws -> [DetectionBox] {
        if let rawDecoder {
            return try processRaw(
                rawDecoder, model, imageWidth: imageWidth, imageHeight: imageHeight, orientation: orientation)
        }
        let boxes = try OutputHeadRules.floats(model, locationIndex)
        let classes = try OutputHeadRules.floats(model, categoryIndex)
        let scores = try OutputHeadRules.floats(model, scoreIndex)
        let count = try OutputHeadRules.floats(model, countIndex)
        let slots = classes.count
        guard count.count == 1, scores.count == slots, boxes.count == slots * 4 else {
            throw VisionCoreError(
                .internal,
                "Unexpected detection output sizes: \(boxes.count) box values, \(classes.count) classes, "
                    + "\(scores.count) scores, \(count.count) counts."
            )
        }
        let k = maxClassesPerDetection
        let reported = count[0].isFinite ? Int(max(0, count[0])) : 0
        let detections = min(reported, slots / k)
        let mapping = ImagePreprocessor.mapping(
            width: imageWidth, height: imageHeight, orientation: orientation, roi: .full,
            dstWidth: 1, dstHeight: 1)
        var result: [DetectionBox] = []
        for d in 0..<detections {
            var categories: [Category] = []
            for j in 0..<k {
                let e = d * k + j
                guard classes[e].isFinite else { continue }
                let cls = Int(classes[e])
                guard rules.admits(cls) else { continue }
                let score = rules.calibrated(scores[e], classIndex: cls)
                guard score >= rules.threshold else { continue }
                categories.append(rules.category(cls, score: score))
            }
            if categories.isEmpty { continue }
            let v = (0..<4).map { boxes[d * k * 4 + boxOrder[$0]] }
            guard
                let box = Self.pixelBox(
                    left: v[0], top: v[1], right: v[2], bottom: v[3], mapping: mapping,
                    width: imageWidth, height: imageHeight)
            else { continue }
            result.append(DetectionBox(x: box.0, y: box.1, width: box.2, height: box.3, categories: categories))
            if maxResults > 0 && result.count >= maxResults { break }
        }
        return Self.mergeIdentical(result)
    }

    func processRaw(
        _ decoder: RawSSDDecoder, _ model: ModelOutputs, imageWidth: Int, imageHeight: Int,
        orientation: ImageOrientation
    ) throws -> [DetectionBox] {
        let raw = try OutputHeadRules.floats(model, locationIndex)
        let scores = try OutputHeadRules.floats(model, scoreIndex)
        guard raw.count == decoder.anchors.count * Int(decoder.options.numCoords),
            scores.count == decoder.anchors.count * Int(decoder.options.numClasses)
        else {
            throw VisionCoreError(
                .internal, "Unexpected raw detector output sizes: \(raw.count) box values, \(scores.count) scores.")
        }
        let candidates = decoder.decode(boxes: raw, scores: scores, threshold: rules.threshold) { rules.admits($0) }
        let kept = decoder.suppress(candidates, limit: maxResults)
        let mapping = ImagePreprocessor.mapping(
            width: imageWidth, height: imageHeight, orientation: orientation, roi: .full,
            dstWidth: 1, dstHeight: 1)
        var result: [DetectionBox] = []
        for c in kept {
            guard
                let box = Self.pixelBox(
                    left: c.xmin, top: c.ymin, right: c.xmax, bottom: c.ymax, mapping: mapping,
                    width: imageWidth, height: imageHeight)
            else { continue }
            let keypoints = c.keypoints.map { k -> (Float, Float) in
                let (x, y) = mapping.source(x: Double(k.x), y: Double(k.y))
                return (Float(x / Double(imageWidth)), Float(y / Double(imageHeight)))
            }
            result.append(
                DetectionBox(
                    x: box.0, y: box.1, width: box.2, height: box.3,
                    categories: [rules.category(c.classIndex, score: c.score)],
                    keypoints: keypoints))
        }
        return Self.mergeIdentical(result)
    }

    /// Projects a box given relative to the upright tensor frame into the stored image, then
    /// converts it to pixels as MediaPipe does: truncate, clamp x, y, w, h to [0, dim]. Boxes with
    /// negative or NaN sizes give nil.
    package static func pixelBox(
        left: Float, top: Float, right: Float, bottom: Float,
        mapping: ImagePreprocessor.Mapping, width: Int, height: Int
    ) -> (Int, Int, Int, Int)? {
        let w = right - left, h = bottom - top
        guard w >= 0, h >= 0, left.isFinite, top.isFinite, w.isFinite, h.isFinite else { return nil }
        let W = Double(width), H = Double(height)
        let corners = [
            (Double(left), Double(top)), (Double(right), Double(top)), (Double(left), Double(bottom)),
            (Double(right), Double(bottom)),
        ]
        let projected = corners.map { mapping.source(x: $0.0, y: $0.1) }
        let minX = projected.map(\.0).min() ?? 0, maxX = projected.map(\.0).max() ?? 0
        let minY = projected.map(\.1).min() ?? 0, maxY = projected.map(\.1).max() ?? 0
        // Relative box in the stored image, in float as MediaPipe keeps it.
        let rx = Float(minX / W), ry = Float(minY / H), rw = Float((maxX - minX) / W), rh = Float((maxY - minY) / H)
        func clampInt(_ v: Float, _ limit: Int) -> Int {
            let t = v * Float(limit)
            guard t.isFinite else { return 0 }
            return min(max(Int(max(min(t, 1e9), -1e9)), 0), limit)
        }
        return (clampInt(rx, width), clampInt(ry, height), clampInt(rw, width), clampInt(rh, height))
    }

    /// Merges detections whose integer boxes are identical into the first one, categories appended.
    package static func mergeIdentical(_ boxes: [DetectionBox]) -> [DetectionBox] {
        var out: [DetectionBox] = []
        for b in boxes {
            if let i = out.firstIndex(where: {
                $0.x == b.x && $0.y == b.y && $0.width == b.width && $0.height == b.height
            }) {
                out[i].categories += b.categories
            } else {
                out.append(b)
            }
        }
        return out
    }
}
