import TFLiteModel

/// Small `.tflite` models built in code for paths the shared models do not cover.
public enum SyntheticModels {
    /// input [1, h, w, 3] float32 → ADD a constant → output. Runs on LiteRT.
    public static func addConstant(height: Int = 4, width: Int = 4, constant: Float = 0.5) throws -> [UInt8] {
        var b = ModelBuilder(description: "synthetic add")
        let input = b.addTensor(Tensor(name: "image", shape: [1, height, width, 3], type: .float32))
        let c = b.addConstant(name: "constant", shape: [1], floats: [constant])
        let output = b.addTensor(Tensor(name: "output", shape: [1, height, width, 3], type: .float32))
        let add = b.opcode(OperatorCode(builtinCode: 0))
        b.operators = [ModelBuilder.Op(opcodeIndex: add, inputs: [input, c], outputs: [output])]
        b.inputs = [input]
        b.outputs = [output]
        return try b.build()
    }

    /// The same add model with metadata: image input (normalization `mean`/`std`), one output
    /// with a label file (and, optionally, a second label file in `locale`).
    public static func addConstantWithMetadata(mean: [Float], std: [Float], labels: [String] = ["a", "b"],
                                               localized: (locale: String, labels: [String])? = nil, deflate: Bool = false) throws -> [UInt8] {
        var b = ModelBuilder(description: "synthetic add with metadata")
        let input = b.addTensor(Tensor(name: "image", shape: [1, 4, 4, 3], type: .float32))
        let c = b.addConstant(name: "constant", shape: [1], floats: [0.5])
        let output = b.addTensor(Tensor(name: "output", shape: [1, 4, 4, 3], type: .float32))
        b.operators = [ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 0)), inputs: [input, c], outputs: [output])]
        b.inputs = [input]
        b.outputs = [output]
        var files: [ModelMetadata.AssociatedFile] = [ModelMetadata.AssociatedFile(name: "labels.txt", type: .tensorAxisLabels)]
        var contents: [(name: String, contents: [UInt8])] = [("labels.txt", Array((labels.joined(separator: "\n") + "\n").utf8))]
        if let localized {
            files.append(ModelMetadata.AssociatedFile(name: "labels_\(localized.locale).txt", type: .tensorAxisLabels, locale: localized.locale))
            contents.append(("labels_\(localized.locale).txt", Array(localized.labels.joined(separator: "\n").utf8)))
        }
        let metadata = ModelMetadata(
            name: "Synthetic", version: "1",
            subgraphs: [ModelMetadata.SubgraphMetadata(
                inputTensors: [ModelMetadata.TensorMetadata(name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)),
                                                            processUnits: [.normalization(mean: mean, std: std)])],
                outputTensors: [ModelMetadata.TensorMetadata(name: "probability", content: .init(properties: .feature),
                                                             processUnits: [.scoreThresholding(globalScoreThreshold: 0.25)],
                                                             associatedFiles: files)])],
            minParserVersion: "1.0.0")
        return try b.build(metadata: metadata, files: contents, deflate: deflate)
    }
}
