import LiteRT
import TFLiteModel

/// MediaPipe's rules for one output head, shared by the detector's and the classifier's
/// post-processing: labels and display names (by locale), score calibration, the threshold rule
/// (option, else metadata, else the fallback; kept when `score >= threshold`), allow/deny lists by
/// label name, and reading the tensor as floats.
package struct OutputHeadRules: Sendable {
    package let labels: LabelMap?
    package let calibration: ScoreCalibration?
    package let threshold: Float
    /// Allowed class indices (nil: all), denied ones.
    package let allowed: Set<Int>?
    package let denied: Set<Int>

    /// The rules for a head: labels of `labelType` from `labelsFrom`'s metadata; the calibration
    /// (when `calibrated`) and the metadata threshold from `scoresFrom`'s; threshold and lists from
    /// `options`. `fallbackLabels` name the classes when the metadata has no label file.
    package init(
        labelsFrom: ModelMetadata.TensorMetadata?, labelType: ModelMetadata.AssociatedFileType,
        scoresFrom: ModelMetadata.TensorMetadata?, calibrated: Bool = true, options: ResultOptions,
        resources: ModelResources,
        fallbackLabels: LabelMap? = nil
    ) throws {
        do {
            labels =
                try labelsFrom.flatMap {
                    try LabelMap.load(
                        tensor: $0, type: labelType, locale: options.displayNamesLocale, archive: resources.archive)
                }
                ?? fallbackLabels
            if calibrated, let metadata = scoresFrom, let cal = metadata.scoreCalibration {
                guard let file = metadata.firstAssociatedFile(ofType: .tensorAxisScoreCalibration) else {
                    throw VisionCoreError(
                        .notFound,
                        "Found ScoreCalibrationOptions but missing required associated parameters file with type "
                            + "TENSOR_AXIS_SCORE_CALIBRATION."
                    )
                }
                calibration = try ScoreCalibration(
                    fileContents: try resources.associatedFile(file.name), transformation: cal.transformation,
                    defaultScore: cal.defaultScore)
            } else {
                calibration = nil
            }
        } catch let e as TFLiteModelError {
            throw ModelResources.map(e)
        }
        threshold = options.scoreThreshold ?? scoresFrom?.scoreThreshold ?? options.fallbackScoreThreshold
        if !options.categoryAllowlist.isEmpty || !options.categoryDenylist.isEmpty {
            guard let labels else {
                throw VisionCoreError(
                    .invalidArgument,
                    "Using `category_allowlist` or `category_denylist` requires labels to be present in the TFLite "
                        + "Model Metadata but none was found."
                )
            }
            func indices(_ list: [String]) -> Set<Int> { Set(list.compactMap { labels.names.firstIndex(of: $0) }) }
            let allow = indices(options.categoryAllowlist)
            allowed = allow.isEmpty ? nil : allow
            denied = indices(options.categoryDenylist)
        } else {
            allowed = nil
            denied = []
        }
    }

    /// Whether class `index` passes the allow and deny lists.
    package func admits(_ index: Int) -> Bool { (allowed?.contains(index) ?? true) && !denied.contains(index) }

    /// `score` of class `index` after calibration (unchanged without one).
    package func calibrated(_ score: Float, classIndex index: Int) -> Float {
        calibration?.calibrate(score, classIndex: index) ?? score
    }

    /// Class `index` with `score`, named from the labels when they have it.
    package func category(_ index: Int, score: Float) -> Category {
        guard let labels, labels.names.indices.contains(index) else { return Category(index: index, score: score) }
        return Category(
            index: index, score: score, categoryName: labels.names[index], displayName: labels.displayNames?[index])
    }

    /// MediaPipe's checks of a head's output types: each float32 or uint8 (or bool, when allowed),
    /// and all quantized or none.
    package static func checkTypes(_ outputs: [Tensor], allowingBool: Bool) throws {
        for (i, t) in outputs.enumerated()
        where t.type != .float32 && t.type != .uint8 && !(allowingBool && t.type == .bool) {
            throw VisionCoreError(
                .invalidArgument,
                "Expected output tensor at index \(i) to have type UINT8 or FLOAT32\(allowingBool ? " or BOOL" : ""), "
                    + "found \(t.type) instead.")
        }
        let quantized = outputs.filter { $0.type == .uint8 }.count
        guard quantized == 0 || quantized == outputs.count else {
            throw VisionCoreError(
                .invalidArgument,
                "Expected either all or none of the output tensors to be quantized, but found \(quantized) quantized "
                    + "outputs for \(outputs.count) total outputs."
            )
        }
    }

    /// Output `index` as floats: float32 as is, uint8 dequantized, bool (when allowed) as 0/1; other
    /// types are refused with MediaPipe's message.
    package static func floats(_ model: ModelOutputs, _ index: Int, allowingBool: Bool = false) throws -> [Float] {
        try model.floats(index, accepting: allowingBool ? [.float32, .uint8, .bool] : [.float32, .uint8]) { type in
            VisionCoreError(
                .invalidArgument,
                "Expected output tensor at index \(index) to have type UINT8 or "
                    + "FLOAT32\(allowingBool ? " or BOOL" : ""), found \(type) instead."
            )
        }
    }
}
