import LiteRT
import TFLiteModel

/// Turns a classifier's output tensors into categories per head, with MediaPipe's checks and
/// semantics: labels and display names from each head's metadata, score calibration, thresholds
/// (`>=`), allow/deny lists by label name, top-k, scores sorted descending; a single-value BOOL
/// head is a binary classifier with categories `[s, 1 − s]`.
public struct ClassificationPostprocessor: Sendable {
    /// What one output head needs.
    public struct Head: Sendable {
        public var index: Int
        public var name: String
        public var classCount: Int
        public var isBool: Bool
        public var labels: LabelMap?
        public var calibration: ScoreCalibration?
        public var threshold: Float
        public var allowed: Set<Int>?
        public var denied: Set<Int>
    }

    public let heads: [Head]
    public let maxResults: Int

    /// Checks the options, the outputs and their metadata, in MediaPipe's order.
    public init(resources: ModelResources, options: ClassifierOptions) throws {
        guard options.maxResults != 0 else {
            throw VisionCoreError(.invalidArgument, "Invalid `max_results` option: value must be != 0.")
        }
        guard options.categoryAllowlist.isEmpty || options.categoryDenylist.isEmpty else {
            throw VisionCoreError(.invalidArgument, "`category_allowlist` and `category_denylist` are mutually exclusive options.")
        }
        guard resources.file.subgraphs.count == 1 else {
            throw VisionCoreError(.invalidArgument, "Classification tflite models are assumed to have a single subgraph.")
        }
        let outputs = resources.file.subgraphs[0].outputTensors
        for (i, t) in outputs.enumerated() where t.type != .float32 && t.type != .uint8 && t.type != .bool {
            throw VisionCoreError(.invalidArgument, "Expected output tensor at index \(i) to have type UINT8 or FLOAT32 or BOOL, found \(t.type) instead.")
        }
        let quantized = outputs.filter { $0.type == .uint8 }.count
        guard quantized == 0 || quantized == outputs.count else {
            throw VisionCoreError(.invalidArgument,
                                  "Expected either all or none of the output tensors to be quantized, but found \(quantized) quantized outputs for \(outputs.count) total outputs.")
        }
        let metadata = resources.subgraphMetadata?.outputTensors
        if let metadata, metadata.count != outputs.count {
            throw VisionCoreError(.invalidArgument,
                                  "Mismatch between number of output tensors (\(outputs.count)) and output tensors metadata (\(metadata.count)).")
        }
        var heads: [Head] = []
        for (i, tensor) in outputs.enumerated() {
            let meta = metadata?[i]
            let classes = tensor.shape.reduce(1, *)
            var labels: LabelMap?
            var calibration: ScoreCalibration?
            do {
                if let meta {
                    labels = try LabelMap.load(tensor: meta, type: .tensorAxisLabels, locale: options.displayNamesLocale, archive: resources.archive)
                    if let cal = meta.scoreCalibration {
                        guard let file = meta.firstAssociatedFile(ofType: .tensorAxisScoreCalibration) else {
                            throw VisionCoreError(.notFound,
                                                  "Found ScoreCalibrationOptions but missing required associated parameters file with type TENSOR_AXIS_SCORE_CALIBRATION.")
                        }
                        calibration = try ScoreCalibration(fileContents: try resources.associatedFile(file.name),
                                                           transformation: cal.transformation, defaultScore: cal.defaultScore)
                    }
                }
            } catch let e as TFLiteModelError {
                throw ModelResources.map(e)
            }
            var allowed: Set<Int>?
            var denied = Set<Int>()
            if !options.categoryAllowlist.isEmpty || !options.categoryDenylist.isEmpty {
                guard let labels else {
                    throw VisionCoreError(.invalidArgument,
                                          "Using `category_allowlist` or `category_denylist` requires labels to be present in the TFLite Model Metadata but none was found.")
                }
                func indices(_ list: [String]) -> Set<Int> { Set(list.compactMap { labels.names.firstIndex(of: $0) }) }
                let allow = indices(options.categoryAllowlist)
                allowed = allow.isEmpty ? nil : allow
                denied = indices(options.categoryDenylist)
            }
            let threshold = options.scoreThreshold ?? meta?.scoreThreshold ?? options.fallbackScoreThreshold
            heads.append(Head(index: i, name: meta?.name ?? "", classCount: classes, isBool: tensor.type == .bool, labels: labels,
                              calibration: calibration, threshold: threshold, allowed: allowed, denied: denied))
        }
        self.heads = heads
        maxResults = options.maxResults
    }

    /// Scores of output `index` as floats (uint8 dequantized, bool as 0/1).
    static func scores(_ model: ModelOutputs, _ index: Int) throws -> [Float] {
        let d = try model.description(index)
        switch d.elementType {
        case .float32: return try model.withOutput(index) { Array($0.bindMemory(to: Float.self)) }
        case .uint8:
            let q = d.quantization ?? Quantization(scale: 1, zeroPoint: 0)
            return try model.withOutput(index) { raw in raw.map { q.scale * (Float($0) - Float(q.zeroPoint)) } }
        case .bool: return try model.withOutput(index) { raw in raw.map { $0 != 0 ? 1 : 0 } }
        default:
            throw VisionCoreError(.invalidArgument, "Expected output tensor at index \(index) to have type UINT8 or FLOAT32 or BOOL, found \(d.elementType) instead.")
        }
    }

    /// The categories of every head.
    public func process(_ model: ModelOutputs) throws -> [HeadClassification] {
        try heads.map { head in
            var raw = try Self.scores(model, head.index)
            if let calibration = head.calibration {
                raw = raw.enumerated().map { calibration.calibrate($0.element, classIndex: $0.offset) }
            }
            var categories: [Category] = []
            func category(_ i: Int, _ score: Float) -> Category {
                var name: String?, display: String?
                if let labels = head.labels, labels.names.indices.contains(i) {
                    name = labels.names[i]
                    display = labels.displayNames?[i]
                }
                return Category(index: i, score: score, categoryName: name, displayName: display)
            }
            if head.isBool && raw.count == 1 {
                if let labels = head.labels, labels.names.count != 2 {
                    throw VisionCoreError(.internal, "The number of classes (2) of binary head \(head.index) does not match its number of labels (\(labels.names.count)).")
                }
                categories = [category(0, raw[0]), category(1, 1 - raw[0])]
            } else {
                if let labels = head.labels, labels.names.count != raw.count {
                    throw VisionCoreError(.internal, "The number of classes (\(raw.count)) of head \(head.index) does not match its number of labels (\(labels.names.count)).")
                }
                for (i, s) in raw.enumerated() {
                    if let allowed = head.allowed, !allowed.contains(i) { continue }
                    if head.denied.contains(i) { continue }
                    guard s >= head.threshold else { continue }
                    categories.append(category(i, s))
                }
            }
            categories.sort { $0.score > $1.score }
            if maxResults > 0 && categories.count > maxResults { categories.removeLast(categories.count - maxResults) }
            return HeadClassification(headIndex: head.index, headName: head.name, categories: categories)
        }
    }
}
