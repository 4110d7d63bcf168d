/// Writes what MediaPipe's ImageClassifier and ML Kit's image labeler read into a classifier (one
/// output): labels (TENSOR_AXIS_LABELS on the output), input normalization and a score threshold.
/// Existing metadata and associated files are kept; the weights are untouched.
public enum ClassifierMetadataWriter {
    /// The model's bytes with the classifier metadata added.
    public static func write(_ file: ModelFile, labels: (name: String, contents: [UInt8])?, normalization: (mean: Float, std: Float)? = nil,
                             scoreThreshold: Float? = nil) throws -> [UInt8] {
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 1 else {
            throw TFLiteModelError(.invalidBuilderInput, "A classifier has 1 output; this model has \(outputs.count).")
        }
        if let labels {
            let count = try LabelMap.parseLines(labels.contents).count
            let classes = outputs[0].shape.last ?? 0
            guard count == classes else {
                throw TFLiteModelError(.invalidAssociatedFile, "\(labels.name) has \(count) labels; the model's output has \(classes) classes.")
            }
        }
        if let scoreThreshold, !(0...1).contains(scoreThreshold) {
            throw TFLiteModelError(.invalidBuilderInput, "The score threshold must be in 0…1, got \(scoreThreshold).")
        }
        var metadata = try file.modelMetadata() ?? ModelMetadata(name: "ImageClassifier")
        if metadata.subgraphs.isEmpty { metadata.subgraphs = [ModelMetadata.SubgraphMetadata()] }
        var sg = metadata.subgraphs[0]
        if sg.inputTensors.isEmpty {
            sg.inputTensors = [ModelMetadata.TensorMetadata(name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)))]
        }
        if let normalization {
            sg.inputTensors[0].processUnits.removeAll { if case .normalization = $0 { return true } else { return false } }
            sg.inputTensors[0].processUnits.append(.normalization(mean: [normalization.mean], std: [normalization.std]))
        }
        if sg.outputTensors.count != 1 { sg.outputTensors = [ModelMetadata.TensorMetadata(name: "probability", content: .init(properties: .feature))] }
        var files: [(name: String, contents: [UInt8])] = []
        if let archive = try file.associatedFiles() {
            for e in archive.entries { files.append((e.name, try archive.contents(of: e))) }
        }
        if let labels {
            files.removeAll { $0.name == labels.name }
            files.append(labels)
            sg.outputTensors[0].associatedFiles.removeAll { $0.type == .tensorAxisLabels }
            sg.outputTensors[0].associatedFiles.append(.init(name: labels.name, type: .tensorAxisLabels))
        }
        if let scoreThreshold {
            sg.outputTensors[0].processUnits.removeAll { if case .scoreThresholding = $0 { return true } else { return false } }
            sg.outputTensors[0].processUnits.append(.scoreThresholding(globalScoreThreshold: scoreThreshold))
        }
        metadata.subgraphs[0] = sg
        return try file.replacingMetadata(metadata, files: files)
    }
}
