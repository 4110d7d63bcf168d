import LiteRT
import TFLiteModel

/// Turns a classifier's output tensors into categories per head, with MediaPipe's checks and
/// semantics: labels and display names from each head's metadata, score calibration, thresholds
/// (`>=`), allow/deny lists by label name, top-k, scores sorted descending; a single-value BOOL
/// head is a binary classifier with categories `[s, 1 − s]`.
package struct ClassificationPostprocessor: Sendable {
    /// What one output head needs.
    package struct Head: Sendable {
        package var index: Int
        package var name: String
        package var classCount: Int
        package var isBool: Bool
        package var rules: OutputHeadRules
    }

    package let heads: [Head]
    package let maxResults: Int

    /// Checks the options, the outputs and their metadata, in MediaPipe's order.
    package init(resources: ModelResources, options: ClassifierOptions) throws {
        try options.validate(maxResultsMessage: "Invalid `max_results` option: value must be != 0.")
        guard resources.file.subgraphs.count == 1 else {
            throw VisionCoreError(
                .invalidArgument, "Classification tflite models are assumed to have a single subgraph.")
        }
        let outputs = resources.file.subgraphs[0].outputTensors
        try OutputHeadRules.checkTypes(outputs, allowingBool: true)
        let metadata = resources.subgraphMetadata?.outputTensors
        if let metadata, metadata.count != outputs.count {
            throw VisionCoreError(
                .invalidArgument,
                "Mismatch between number of output tensors (\(outputs.count)) and output tensors metadata "
                    + "(\(metadata.count))."
            )
        }
        var heads: [Head] = []
        for (i, tensor) in outputs.enumerated() {
            let meta = metadata?[i]
            let rules = try OutputHeadRules(
                labelsFrom: meta, labelType: .tensorAxisLabels, scoresFrom: meta, options: options, resources: resources
            )
            heads.append(
                Head(
                    index: i, name: meta?.name ?? "", classCount: tensor.shape.reduce(1, *),
                    isBool: tensor.type == .bool, rules: rules))
        }
        self.heads = heads
        maxResults = options.maxResults
    }

    /// The categories of every head.
    package func process(_ model: ModelOutputs) throws -> [HeadClassification] {
        try heads.map { head in
            let rules = head.rules
            let raw = try OutputHeadRules.floats(model, head.index, allowingBool: true).enumerated().map {
                rules.calibrated($0.element, classIndex: $0.offset)
            }
            var categories: [Category] = []
            let labelCount = rules.labels?.names.count
            if head.isBool && raw.count == 1 {
                if let labelCount, labelCount != 2 {
                    throw VisionCoreError(
                        .internal,
                        "The number of classes (2) of binary head \(head.index) does not match its number of labels "
                            + "(\(labelCount))."
                    )
                }
                categories = [rules.category(0, score: raw[0]), rules.category(1, score: 1 - raw[0])]
            } else {
                if let labelCount, labelCount != raw.count {
                    throw VisionCoreError(
                        .internal,
                        "The number of classes (\(raw.count)) of head \(head.index) does not match its number of "
                            + "labels (\(labelCount))."
                    )
                }
                for (i, s) in raw.enumerated() where rules.admits(i) && s >= rules.threshold {
                    categories.append(rules.category(i, score: s))
                }
            }
            categories.sort { $0.score > $1.score }
            if maxResults > 0 && categories.count > maxResults { categories.removeLast(categories.count - maxResults) }
            return HeadClassification(headIndex: head.index, headName: head.name, categories: categories)
        }
    }
}
