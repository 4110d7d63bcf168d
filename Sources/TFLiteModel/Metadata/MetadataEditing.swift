/// What the metadata writers share: starting from a model's metadata (or new metadata) with an
/// image input, setting input normalization, keeping the associated files, attaching a label file.
enum MetadataEditing {
    /// The model's metadata (or new metadata named `name`), its first subgraph with an image input
    /// tensor (and `normalization`, when given), and the model's associated files.
    static func start(
        _ file: ModelFile, name: String, normalization: (mean: Float, std: Float)?
    ) throws
        -> (
            metadata: ModelMetadata, subgraph: ModelMetadata.SubgraphMetadata,
            files: [(name: String, contents: [UInt8])]
        )
    {
        var metadata = try file.modelMetadata() ?? ModelMetadata(name: name)
        if metadata.subgraphs.isEmpty { metadata.subgraphs = [ModelMetadata.SubgraphMetadata()] }
        var sg = metadata.subgraphs[0]
        if sg.inputTensors.isEmpty {
            sg.inputTensors = [
                ModelMetadata.TensorMetadata(
                    name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)))
            ]
        }
        if let normalization {
            sg.inputTensors[0].processUnits.removeAll {
                if case .normalization = $0 { return true } else { return false }
            }
            sg.inputTensors[0].processUnits.append(.normalization(mean: [normalization.mean], std: [normalization.std]))
        }
        var files: [(name: String, contents: [UInt8])] = []
        if let archive = try file.associatedFiles() {
            for e in archive.entries { files.append((e.name, try archive.contents(of: e))) }
        }
        return (metadata, sg, files)
    }

    /// Makes `threshold` the score threshold of `tensor` (replacing any).
    static func setScoreThreshold(_ threshold: Float, on tensor: inout ModelMetadata.TensorMetadata) {
        tensor.processUnits.removeAll {
            if case .scoreThresholding = $0 { return true } else { return false }
        }
        tensor.processUnits.append(.scoreThresholding(globalScoreThreshold: threshold))
    }

    /// Makes `labels` the label file of `tensor` (replacing any), stored among `files`.
    /// Axis labels (a classifier's classes) by default; value labels for a tensor whose values are
    /// class indices (a post-processed detector's `category` output).
    static func attach(
        _ labels: (name: String, contents: [UInt8]), to tensor: inout ModelMetadata.TensorMetadata,
        files: inout [(name: String, contents: [UInt8])], type: ModelMetadata.AssociatedFileType = .tensorAxisLabels
    ) {
        files.removeAll { $0.name == labels.name }
        files.append(labels)
        tensor.associatedFiles.removeAll { $0.type == .tensorAxisLabels || $0.type == .tensorValueLabels }
        tensor.associatedFiles.append(.init(name: labels.name, type: type))
    }
}
