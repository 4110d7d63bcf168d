/// Writes what MediaPipe's ObjectDetector needs into a raw SSD detector (two outputs: boxes and
/// scores): `DETECTOR_METADATA` with anchors and decoding options, BoundingBoxProperties on the
/// location tensor, optional labels (TENSOR_AXIS_LABELS on the score tensor) and input
/// normalization. Existing metadata and associated files are kept; the weights are untouched.
package enum DetectorMetadataWriter {
    /// The model's bytes with the detector metadata added.
    package static func write(
        _ file: ModelFile, anchors: [DetectorMetadata.Anchor], decoding: DetectorMetadata.DecodingOptions,
        labels: (name: String, contents: [UInt8])? = nil, normalization: (mean: Float, std: Float)? = nil
    ) throws -> [UInt8] {
        let outputs = file.subgraphs[0].outputTensors
        guard outputs.count == 2 else {
            throw TFLiteModelError(
                .invalidBuilderInput,
                "A raw SSD detector has 2 outputs (boxes, scores); this model has \(outputs.count).")
        }
        guard anchors.count == Int(decoding.numBoxes) else {
            throw TFLiteModelError(.invalidBuilderInput, "\(anchors.count) anchors for num_boxes \(decoding.numBoxes).")
        }
        var (metadata, sg, files) = try MetadataEditing.start(
            file, name: "ObjectDetector", normalization: normalization)
        if sg.outputTensors.count != 2 {
            sg.outputTensors = [
                ModelMetadata.TensorMetadata(name: "location"), ModelMetadata.TensorMetadata(name: "score"),
            ]
        }
        // MediaPipe checks BoundingBoxProperties on the location tensor for both detector kinds.
        sg.outputTensors[0].content = .init(
            properties: .boundingBox(index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio), range: 2...2)
        if let labels { MetadataEditing.attach(labels, to: &sg.outputTensors[1], files: &files) }
        sg.customMetadata.removeAll { $0.name == DetectorMetadata.name }
        sg.customMetadata.append(
            .init(
                name: DetectorMetadata.name, data: DetectorMetadata(anchors: anchors, decoding: decoding).flatBuffer()))
        metadata.subgraphs[0] = sg
        if ModelMetadata.compareVersions(metadata.minParserVersion ?? "1.0.0", "1.5.0") < 0 {
            metadata.minParserVersion = "1.5.0"
        }
        return try file.replacingMetadata(metadata, files: files)
    }
}
