/// Writes what MediaPipe's ObjectDetector needs into a detector that ends in the
/// `TFLite_Detection_PostProcess` op but carries no metadata (the `…_no_metadata.tflite` models):
/// an image input (with normalization for float inputs), the four outputs named by the op's
/// output ports — `location` (with BoundingBoxProperties `[1, 0, 3, 2]`, boundaries, ratio),
/// `category` (with the label file as TENSOR_VALUE_LABELS), `score`, `number of detections` — and
/// the `detection_result` group: the metadata MediaPipe's own metadata writer produces. The graph
/// and weights are kept byte for byte.
package enum PostProcessDetectorMetadataWriter {
    /// The names MediaPipe looks the outputs up by, in the op's output port order.
    package static let outputNames = ["location", "category", "score", "number of detections"]

    /// The model's bytes with the detector metadata added.
    package static func write(
        _ file: ModelFile, labels: (name: String, contents: [UInt8]),
        normalization: (mean: Float, std: Float)?
    ) throws -> [UInt8] {
        guard let sg = file.subgraphs.first else {
            throw TFLiteModelError(.invalidBuilderInput, "The model has no subgraph.")
        }
        let op = sg.operators.first { op in
            file.operatorCodes.indices.contains(op.opcodeIndex)
                && file.operatorCodes[op.opcodeIndex].customCode == DetectionPostProcessOptions.opName
        }
        guard let op, op.outputs.count == 4 else {
            throw TFLiteModelError(
                .invalidBuilderInput, "The model has no \(DetectionPostProcessOptions.opName) op with 4 outputs.")
        }
        guard sg.outputs.count == 4, Set(sg.outputs) == Set(op.outputs) else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "The model's outputs are not the 4 outputs of its \(DetectionPostProcessOptions.opName) op.")
        }
        guard let input = sg.inputTensors.first else {
            throw TFLiteModelError(.invalidBuilderInput, "The model has no input tensor.")
        }
        if input.type == .float32 && normalization == nil {
            throw TFLiteModelError(
                .normalizationMissing,
                "The model's input is float32: give the normalization (e.g. mean 127.5 and std 127.5 for inputs in "
                    + "[-1, 1])."
            )
        }
        if try LabelMap.parseLines(labels.contents).isEmpty {
            throw TFLiteModelError(.invalidAssociatedFile, "\(labels.name) holds no labels.")
        }
        var (metadata, subgraph, files) = try MetadataEditing.start(
            file, name: "ObjectDetector", normalization: normalization)
        subgraph.outputTensors = sg.outputs.map { index -> ModelMetadata.TensorMetadata in
            let port = op.outputs.firstIndex(of: index) ?? 0
            var t = ModelMetadata.TensorMetadata(name: outputNames[port])
            switch port {
            case 0:
                t.content = .init(
                    properties: .boundingBox(index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio),
                    range: 2...2)
            case 1: t.content = .init(properties: .feature, range: 2...2)
            case 2: t.content = .init(properties: .feature, range: 2...2)
            default: t.content = .init(properties: .feature)
            }
            return t
        }
        if let category = subgraph.outputTensors.firstIndex(where: { $0.name == "category" }) {
            MetadataEditing.attach(
                labels, to: &subgraph.outputTensors[category], files: &files, type: .tensorValueLabels)
        }
        subgraph.outputTensorGroups = [.init(name: "detection_result", tensorNames: ["location", "category", "score"])]
        metadata.subgraphs[0] = subgraph
        if ModelMetadata.compareVersions(metadata.minParserVersion ?? "1.0.0", "1.2.0") < 0 {
            metadata.minParserVersion = "1.2.0"
        }
        return try file.replacingMetadata(metadata, files: files)
    }
}
