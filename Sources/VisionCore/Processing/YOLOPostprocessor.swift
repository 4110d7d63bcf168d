import Imaging
import LiteRT
import TFLiteModel

/// Turns a YOLO detector's single output into boxes the way Ultralytics' `predict` does, with
/// MediaPipe's result options on top:
///
/// - detection heads (`[1, 4+C, N]`, `[1, N, 4+C]`): each anchor keeps its best class among the
///   allowed ones (MediaPipe's allow/deny rule) when it scores at least the threshold; centre-size
///   boxes (scaled by the input size when normalized) become corners; then greedy NMS — per class
///   unless ``YOLODecoding/classAgnostic`` — at IoU ``YOLODecoding/iouThreshold``, at most
///   ``YOLODecoding/maxDetections`` boxes (Ultralytics keeps the best 30,000 candidates before NMS);
/// - end-to-end outputs (`[1, K, 6]`): rows `x1, y1, x2, y2, score, class` kept in order when they
///   pass the threshold and the lists, no NMS.
///
/// Boxes are mapped back through the letterbox (`scale_boxes`: padding off, divided by the gain,
/// clipped), then to the stored picture through its orientation; corners are rounded to whole
/// pixels. `maxResults` applies last. Labels come from the model's TFLite metadata (a label file
/// added by `vision-tasks metadata`, with display names by locale) or Ultralytics' class names.
package struct YOLOPostprocessor: Sendable {
    /// The output's layout.
    package let layout: YOLOHeadLayout
    /// Why ``layout`` was chosen (for `inspect`).
    package let reason: String
    /// Labels, threshold, allow/deny lists.
    package let rules: OutputHeadRules
    /// NMS and decoding options.
    package let options: YOLODecoding
    /// MediaPipe's `maxResults` (-1: all), applied after NMS.
    package let maxResults: Int
    /// The input tensor's size.
    package let inputWidth: Int, inputHeight: Int
    /// The output's box units; nil: read from each output's values.
    package let boxUnits: YOLODecoding.BoxUnits?
    /// Ultralytics' cap on candidates before NMS (`max_nms`).
    static let maxCandidates = 30_000

    /// A decoded box in input pixels, before mapping back.
    package struct Candidate: Equatable, Sendable {
        /// Corners in input pixels.
        package var x1: Float, y1: Float, x2: Float, y2: Float
        /// The class's score.
        package var score: Float
        /// The best allowed class.
        package var classIndex: Int

        package init(x1: Float, y1: Float, x2: Float, y2: Float, score: Float, classIndex: Int) {
            (self.x1, self.y1, self.x2, self.y2, self.score, self.classIndex) = (x1, y1, x2, y2, score, classIndex)
        }
    }

    /// Checks the model's output against the layout rules and builds the decoding.
    package init(
        resources: ModelResources, metadata: UltralyticsMetadata?, options: DetectorOptions, yolo: YOLODecoding
    ) throws {
        let file = resources.file
        (layout, reason) = try YOLOHeadLayout.decide(file, metadata: metadata, override: yolo.head)
        guard let input = file.subgraphs.first?.inputTensors.first.flatMap(YOLOHeadLayout.inputSize) else {
            throw VisionCoreError(.invalidArgument, "A YOLO detector's input must be [1, H, W, 3] or [1, 3, H, W].")
        }
        (inputWidth, inputHeight) = (input.width, input.height)
        if let output = file.subgraphs.first?.outputTensors.first,
            ![.float32, .float16, .int8, .uint8].contains(output.type)
        {
            throw Self.typeError(output.type)
        }
        guard yolo.iouThreshold.isFinite, (0...1).contains(yolo.iouThreshold) else {
            throw VisionCoreError(
                .invalidArgument, "The YOLO IoU threshold must be between 0 and 1, got \(yolo.iouThreshold).")
        }
        guard yolo.maxDetections > 0 else {
            throw VisionCoreError(
                .invalidArgument, "The YOLO maximum detection count must be positive, got \(yolo.maxDetections).")
        }
        var result = options
        if options.scoreThresholdIsDefault { result.scoreThreshold = nil }
        result.fallbackScoreThreshold = YOLODecoding.defaultScoreThreshold
        let outputMeta = resources.subgraphMetadata?.outputTensors.first
        let names = metadata?.labels.map { LabelMap(names: $0) }
        rules = try OutputHeadRules(
            labelsFrom: outputMeta, labelType: .tensorAxisLabels, scoresFrom: outputMeta, calibrated: false,
            options: result,
            resources: resources, fallbackLabels: names)
        self.options = yolo
        maxResults = options.maxResults
        boxUnits = Self.boxUnits(
            forced: yolo.boxUnits, ultralytics: metadata != nil, layout: layout, channelsFirst: input.channelsFirst)
    }

    /// The output's box units: `forced` when given; for Ultralytics' exports (its metadata present)
    /// normalized, except litert-torch's end-to-end (NCHW) outputs in input pixels; otherwise nil —
    /// read from the values (normalized when no coordinate exceeds 2).
    package static func boxUnits(
        forced: YOLODecoding.BoxUnits?, ultralytics: Bool, layout: YOLOHeadLayout, channelsFirst: Bool
    ) -> YOLODecoding.BoxUnits? {
        if let forced { return forced }
        guard ultralytics else { return nil }
        if case .endToEnd = layout, channelsFirst { return .pixels }
        return .normalized
    }

    /// The detections in the model's output for a `bitmapWidth`×`bitmapHeight` bitmap shown with
    /// `orientation`, in the stored pixels of a picture of `imageWidth`×`imageHeight` (the bitmap's
    /// size, or the full size of a picture it holds at a reduced scale).
    package func process(
        _ model: ModelOutputs, bitmapWidth: Int, bitmapHeight: Int, imageWidth: Int, imageHeight: Int,
        orientation: ImageOrientation
    ) throws -> [DetectionBox] {
        let kept = try Self.withValues(model) { values in suppress(try candidates(values)) }
        let swapped = orientation.swapsDimensions
        let box = Letterbox(
            sourceWidth: swapped ? bitmapHeight : bitmapWidth, sourceHeight: swapped ? bitmapWidth : bitmapHeight,
            width: inputWidth, height: inputHeight)
        let mapping = ImagePreprocessor.mapping(
            width: imageWidth, height: imageHeight, orientation: orientation, roi: .full, dstWidth: 1, dstHeight: 1)
        let uw = Double(box.sourceWidth), uh = Double(box.sourceHeight)
        var result: [DetectionBox] = []
        for c in kept {
            if maxResults > 0 && result.count >= maxResults { break }
            let a = box.source(x: c.x1, y: c.y1), b = box.source(x: c.x2, y: c.y2)
            // Upright fractions to stored pixels (the orientation turns the corners).
            let p = mapping.source(x: Double(a.x) / uw, y: Double(a.y) / uh),
                q = mapping.source(x: Double(b.x) / uw, y: Double(b.y) / uh)
            func pixel(_ v: Double, _ limit: Int) -> Int { Int(min(max(v.rounded(), 0), Double(limit))) }
            let x0 = pixel(min(p.0, q.0), imageWidth), x1 = pixel(max(p.0, q.0), imageWidth)
            let y0 = pixel(min(p.1, q.1), imageHeight), y1 = pixel(max(p.1, q.1), imageHeight)
            result.append(
                DetectionBox(
                    x: x0, y: y0, width: x1 - x0, height: y1 - y0,
                    categories: [rules.category(c.classIndex, score: c.score)]))
        }
        return result
    }

    /// Gives `body` the output as floats (the outputs' one dequantizing reader).
    static func withValues<T>(_ model: ModelOutputs, _ body: (UnsafeBufferPointer<Float>) throws -> T) throws -> T {
        try model.withFloats(0, accepting: [.float32, .float16, .int8, .uint8], refusal: typeError, body)
    }

    /// The refusal of an output type the decoder does not read.
    static func typeError(_ type: some CustomStringConvertible) -> VisionCoreError {
        VisionCoreError(
            .invalidArgument,
            "Expected the YOLO output to have type FLOAT32, FLOAT16, INT8 or UINT8, found \(type) instead.")
    }

    /// The candidates in `values` (the output, row-major), in input pixels, best class per anchor.
    package func candidates(_ values: UnsafeBufferPointer<Float>) throws -> [Candidate] {
        let threshold = rules.threshold
        let w = Float(inputWidth), h = Float(inputHeight)
        switch layout {
        case let .endToEnd(k):
            guard values.count == k * 6 else { throw Self.sizeError(values.count, expected: k * 6) }
            let scale: (Float, Float) = units(values, stride: 6, count: k) == .normalized ? (w, h) : (1, 1)
            var out: [Candidate] = []
            for r in 0..<k {
                let row = r * 6
                let score = values[row + 4], cls = values[row + 5]
                guard score >= threshold, score.isFinite, cls.isFinite, cls >= 0, cls < 16_777_216 else { continue }
                guard rules.admits(Int(cls)) else { continue }
                out.append(
                    Candidate(
                        x1: values[row] * scale.0, y1: values[row + 1] * scale.1, x2: values[row + 2] * scale.0,
                        y2: values[row + 3] * scale.1,
                        score: score, classIndex: Int(cls)))
            }
            return out
        case let .channelsFirst(classes, n), let .channelsLast(classes, n):
            guard values.count == (4 + classes) * n else {
                throw Self.sizeError(values.count, expected: (4 + classes) * n)
            }
            let first: Bool
            if case .channelsFirst = layout { first = true } else { first = false }
            // Value of row `r` (0…3 box, 4… classes) for anchor `a`.
            let rowStride = first ? n : 1, anchorStride = first ? 1 : 4 + classes
            var best = [Float](repeating: -.infinity, count: n), bestClass = [Int](repeating: -1, count: n)
            for c in 0..<classes where rules.admits(c) {
                let base = (4 + c) * rowStride
                for a in 0..<n {
                    let s = values[base + a * anchorStride]
                    if s > best[a] { (best[a], bestClass[a]) = (s, c) }
                }
            }
            let normalized = units(values, stride: anchorStride, count: n, rowStride: rowStride) == .normalized
            var out: [Candidate] = []
            for a in 0..<n where bestClass[a] >= 0 && best[a] >= threshold && best[a].isFinite {
                var cx = values[a * anchorStride], cy = values[rowStride + a * anchorStride]
                var bw = values[2 * rowStride + a * anchorStride], bh = values[3 * rowStride + a * anchorStride]
                if normalized { (cx, cy, bw, bh) = (cx * w, cy * h, bw * w, bh * h) }
                let dw = bw / 2, dh = bh / 2
                out.append(
                    Candidate(
                        x1: cx - dw, y1: cy - dh, x2: cx + dw, y2: cy + dh, score: best[a], classIndex: bestClass[a]))
            }
            return out
        }
    }

    /// The box units: as configured, else normalized when no coordinate of the `count` boxes
    /// (`stride` apart, coordinates `rowStride` apart) exceeds 2.
    func units(
        _ values: UnsafeBufferPointer<Float>, stride: Int, count: Int, rowStride: Int = 1
    ) -> YOLODecoding.BoxUnits {
        if let boxUnits { return boxUnits }
        for i in 0..<count {
            for j in 0..<4 where abs(values[i * stride + j * rowStride]) > 2 { return .pixels }
        }
        return .normalized
    }

    /// Greedy NMS over `candidates` (end-to-end outputs: the first ``YOLODecoding/maxDetections`` as they come).
    package func suppress(_ candidates: [Candidate]) -> [Candidate] {
        if case .endToEnd = layout { return Array(candidates.prefix(options.maxDetections)) }
        var pool = candidates
        if pool.count > Self.maxCandidates {
            pool = Array(
                pool.enumerated().sorted {
                    $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
                }
                .prefix(Self.maxCandidates).map(\.element))
        }
        let agnostic = options.classAgnostic, iou = options.iouThreshold
        return NonMaximumSuppression.greedy(pool, score: \.score, limit: options.maxDetections) { kept, c in
            (agnostic || kept.classIndex == c.classIndex) && Self.iou(kept, c) > iou
        }
    }

    /// Intersection over union of two corner boxes (torchvision's: no +1, empty boxes give 0).
    static func iou(_ a: Candidate, _ b: Candidate) -> Float {
        let iw = max(0, min(a.x2, b.x2) - max(a.x1, b.x1)), ih = max(0, min(a.y2, b.y2) - max(a.y1, b.y1))
        let inter = iw * ih
        let union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter
        return union > 0 ? inter / union : 0
    }

    static func sizeError(_ count: Int, expected: Int) -> VisionCoreError {
        VisionCoreError(.internal, "The YOLO output holds \(count) values; its layout needs \(expected).")
    }
}
