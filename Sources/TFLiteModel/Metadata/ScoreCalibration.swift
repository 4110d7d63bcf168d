import Foundation

/// Sigmoid score calibration (metadata `ScoreCalibrationOptions` + a
/// `TENSOR_AXIS_SCORE_CALIBRATION` file): `f(x) = scale / (1 + e^-(slope·g(x) + offset))`.
package struct ScoreCalibration: Equatable, Sendable {
    /// One class's parameters.
    package struct Sigmoid: Equatable, Sendable {
        package var scale: Float
        package var slope: Float
        package var offset: Float
        package var minScore: Float?
        package init(scale: Float, slope: Float, offset: Float, minScore: Float? = nil) {
            self.scale = scale
            self.slope = slope
            self.offset = offset
            self.minScore = minScore
        }
    }

    package var transformation: ModelMetadata.ScoreTransformation
    package var defaultScore: Float
    /// Per class; nil where the file's line was empty.
    package var sigmoids: [Sigmoid?]

    package init(transformation: ModelMetadata.ScoreTransformation, defaultScore: Float, sigmoids: [Sigmoid?]) {
        self.transformation = transformation
        self.defaultScore = defaultScore
        self.sigmoids = sigmoids
    }

    /// Parses a calibration file: one `scale,slope,offset[,min_score]` line per class, or an empty line.
    package init(
        fileContents bytes: [UInt8], transformation: ModelMetadata.ScoreTransformation, defaultScore: Float
    ) throws {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.isEmpty { throw TFLiteModelError(.invalidAssociatedFile, "Expected non-empty score calibration file.") }
        if text.hasSuffix("\n") { text.removeLast() }
        var sigmoids: [Sigmoid?] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { sigmoids.append(nil); continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard fields.count == 3 || fields.count == 4 else {
                throw TFLiteModelError(
                    .invalidAssociatedFile,
                    "Expected 3 or 4 parameters per line in score calibration file, got \(fields.count).")
            }
            let values = try fields.map { f -> Float in
                guard let v = Float(f) else {
                    throw TFLiteModelError(
                        .invalidAssociatedFile, "Could not parse score calibration parameter as float: \(f).")
                }
                return v
            }
            guard values[0] >= 0 else {
                throw TFLiteModelError(
                    .invalidAssociatedFile, "The scale parameter of the sigmoids must be positive, found \(values[0]).")
            }
            sigmoids.append(
                Sigmoid(
                    scale: values[0], slope: values[1], offset: values[2], minScore: values.count == 4 ? values[3] : nil
                ))
        }
        self.init(transformation: transformation, defaultScore: defaultScore, sigmoids: sigmoids)
    }

    /// The calibrated score of class `index` with raw score `x`.
    package func calibrate(_ x: Float, classIndex index: Int) -> Float {
        guard sigmoids.indices.contains(index), let s = sigmoids[index] else { return defaultScore }
        if let minScore = s.minScore, x <= minScore { return defaultScore }
        let g: Float
        switch transformation {
        case .identity: g = x
        case .log: g = log(x)
        case .inverseLogistic: g = log(x) - log(1 - x)
        }
        return s.scale / (1 + exp(-(s.slope * g + s.offset)))
    }
}
