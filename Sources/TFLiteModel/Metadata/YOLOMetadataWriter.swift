/// Writes MediaPipe-style metadata into a YOLO detector (one output): an RGB image input, the
/// output described (`description` names the head), a label file on the output (TENSOR_AXIS_LABELS,
/// one name per class) and optionally a score threshold. Existing associated files — Ultralytics'
/// `metadata.json` among them — are kept; the weights are untouched.
package enum YOLOMetadataWriter {
    /// The model's bytes with the metadata added; `classes` is the head's class count.
    package static func write(
        _ file: ModelFile, labels: (name: String, contents: [UInt8]), classes: Int, description: String,
        scoreThreshold: Float? = nil
    ) throws -> [UInt8] {
        guard file.subgraphs.first?.outputTensors.count == 1 else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "A YOLO detector has 1 output; this model has \(file.subgraphs.first?.outputTensors.count ?? 0).")
        }
        let count = try LabelMap.parseLines(labels.contents).count
        guard count == classes else {
            throw TFLiteModelError(
                .invalidAssociatedFile, "\(labels.name) has \(count) labels; the model's head has \(classes) classes.")
        }
        if let scoreThreshold, !(0...1).contains(scoreThreshold) {
            throw TFLiteModelError(.invalidBuilderInput, "The score threshold must be in 0…1, got \(scoreThreshold).")
        }
        var (metadata, sg, files) = try MetadataEditing.start(file, name: "YOLO detector", normalization: nil)
        if sg.outputTensors.count != 1 { sg.outputTensors = [ModelMetadata.TensorMetadata(name: "detections")] }
        sg.outputTensors[0].description = description
        MetadataEditing.attach(labels, to: &sg.outputTensors[0], files: &files)
        if let scoreThreshold { MetadataEditing.setScoreThreshold(scoreThreshold, on: &sg.outputTensors[0]) }
        metadata.subgraphs[0] = sg
        return try file.replacingMetadata(metadata, files: files)
    }
}
