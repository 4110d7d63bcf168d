/// Writes what MediaPipe's ImageClassifier and ML Kit's image labeler read into a classifier (one
/// output): labels (TENSOR_AXIS_LABELS on the output), input normalization and a score threshold.
/// Existing metadata and associated files are kept; the weights are untouched.
package enum ClassifierMetadataWriter {
    /// The model's bytes with the classifier metadata added.
    package static func write(
        _ file: ModelFile, labels: (name: String, contents: [UInt8])?, normalization: (mean: Float, std: Float)? = nil,
        scoreThreshold: Float? = nil
    ) throws -> [UInt8] {
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 1 else {
            throw TFLiteModelError(.invalidBuilderInput, "A classifier has 1 output; this model has \(outputs.count).")
        }
        if let labels {
            let count = try LabelMap.parseLines(labels.contents).count
            let classes = outputs[0].shape.last ?? 0
            guard count == classes else {
                throw TFLiteModelError(
                    .invalidAssociatedFile,
                    "\(labels.name) has \(count) labels; the model's output has \(classes) classes.")
            }
        }
        if let scoreThreshold, !(0...1).contains(scoreThreshold) {
            throw TFLiteModelError(.invalidBuilderInput, "The score threshold must be in 0…1, got \(scoreThreshold).")
        }
        var (metadata, sg, files) = try MetadataEditing.start(
            file, name: "ImageClassifier", normalization: normalization)
        if sg.outputTensors.count != 1 {
            sg.outputTensors = [ModelMetadata.TensorMetadata(name: "probability", content: .init(properties: .feature))]
        }
        if let labels { MetadataEditing.attach(labels, to: &sg.outputTensors[0], files: &files) }
        if let scoreThreshold { MetadataEditing.setScoreThreshold(scoreThreshold, on: &sg.outputTensors[0]) }
        metadata.subgraphs[0] = sg
        return try file.replacingMetadata(metadata, files: files)
    }
}
