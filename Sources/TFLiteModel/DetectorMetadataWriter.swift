/// Writes what MediaPipe's ObjectDetector needs into a raw SSD detector (two outputs: boxes and
/// scores): `DETECTOR_METADATA` with anchors and decoding options, BoundingBoxProperties on the
/// location tensor, optional labels (TENSOR_AXIS_LABELS on the score tensor) and input
/// normalization. Existing metadata and associated files are kept; the weights are untouched.
public enum DetectorMetadataWriter {
    /// The model's bytes with the detector metadata added.
    public static func write(_ file: ModelFile, anchors: [DetectorMetadata.Anchor], decoding: DetectorMetadata.DecodingOptions,
                             labels: (name: String, contents: [UInt8])? = nil, normalization: (mean: Float, std: Float)? = nil) throws -> [UInt8] {
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 2 else {
            throw TFLiteModelError(.invalidBuilderInput, "A raw SSD detector has 2 outputs (boxes, scores); this model has \(outputs.count).")
        }
        guard anchors.count == Int(decoding.numBoxes) else {
            throw TFLiteModelError(.invalidBuilderInput, "\(anchors.count) anchors for num_boxes \(decoding.numBoxes).")
        }
        var metadata = try file.modelMetadata() ?? ModelMetadata(name: "ObjectDetector")
        if metadata.subgraphs.isEmpty { metadata.subgraphs = [ModelMetadata.SubgraphMetadata()] }
        var sg = metadata.subgraphs[0]
        if sg.inputTensors.isEmpty {
            sg.inputTensors = [ModelMetadata.TensorMetadata(name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)))]
        }
        if let normalization {
            sg.inputTensors[0].processUnits.removeAll { if case .normalization = $0 { return true } else { return false } }
            sg.inputTensors[0].processUnits.append(.normalization(mean: [normalization.mean], std: [normalization.std]))
        }
        if sg.outputTensors.count != 2 {
            sg.outputTensors = [ModelMetadata.TensorMetadata(name: "location"), ModelMetadata.TensorMetadata(name: "score")]
        }
        // MediaPipe checks BoundingBoxProperties on the location tensor for both detector kinds.
        sg.outputTensors[0].content = .init(properties: .boundingBox(index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio), range: 2...2)
        var files: [(name: String, contents: [UInt8])] = []
        if let archive = try file.associatedFiles() {
            for e in archive.entries { files.append((e.name, try archive.contents(of: e))) }
        }
        if let labels {
            files.removeAll { $0.name == labels.name }
            files.append(labels)
            sg.outputTensors[1].associatedFiles.removeAll { $0.type == .tensorAxisLabels }
            sg.outputTensors[1].associatedFiles.append(.init(name: labels.name, type: .tensorAxisLabels))
        }
        sg.customMetadata.removeAll { $0.name == DetectorMetadata.name }
        sg.customMetadata.append(.init(name: DetectorMetadata.name, data: DetectorMetadata(anchors: anchors, decoding: decoding).flatBuffer()))
        metadata.subgraphs[0] = sg
        if ModelMetadata.compareVersions(metadata.minParserVersion ?? "1.0.0", "1.5.0") < 0 { metadata.minParserVersion = "1.5.0" }
        return try file.replacingMetadata(metadata, files: files)
    }
}
