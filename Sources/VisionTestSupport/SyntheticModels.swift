import TFLiteModel

/// Small `.tflite` models built in code for paths the shared models do not cover.
package enum SyntheticModels {
    /// input [1, h, w, 3] float32 → ADD a constant → output. Runs on LiteRT.
    package static func addConstant(height: Int = 4, width: Int = 4, constant: Float = 0.5) throws -> [UInt8] {
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
    package static func addConstantWithMetadata(
        mean: [Float], std: [Float], labels: [String] = ["a", "b"],
        localized: (locale: String, labels: [String])? = nil, deflate: Bool = false
    ) throws -> [UInt8] {
        var b = ModelBuilder(description: "synthetic add with metadata")
        let input = b.addTensor(Tensor(name: "image", shape: [1, 4, 4, 3], type: .float32))
        let c = b.addConstant(name: "constant", shape: [1], floats: [0.5])
        let output = b.addTensor(Tensor(name: "output", shape: [1, 4, 4, 3], type: .float32))
        b.operators = [
            ModelBuilder.Op(opcodeIndex: b.opcode(OperatorCode(builtinCode: 0)), inputs: [input, c], outputs: [output])
        ]
        b.inputs = [input]
        b.outputs = [output]
        var files: [ModelMetadata.AssociatedFile] = [
            ModelMetadata.AssociatedFile(name: "labels.txt", type: .tensorAxisLabels)
        ]
        var contents: [(name: String, contents: [UInt8])] = [
            ("labels.txt", Array((labels.joined(separator: "\n") + "\n").utf8))
        ]
        if let localized {
            files.append(
                ModelMetadata.AssociatedFile(
                    name: "labels_\(localized.locale).txt", type: .tensorAxisLabels, locale: localized.locale))
            contents.append(("labels_\(localized.locale).txt", Array(localized.labels.joined(separator: "\n").utf8)))
        }
        let metadata = ModelMetadata(
            name: "Synthetic", version: "1",
            subgraphs: [
                ModelMetadata.SubgraphMetadata(
                    inputTensors: [
                        ModelMetadata.TensorMetadata(
                            name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)),
                            processUnits: [.normalization(mean: mean, std: std)])
                    ],
                    outputTensors: [
                        ModelMetadata.TensorMetadata(
                            name: "probability", content: .init(properties: .feature),
                            processUnits: [.scoreThresholding(globalScoreThreshold: 0.25)],
                            associatedFiles: files)
                    ])
            ],
            minParserVersion: "1.0.0")
        return try b.build(metadata: metadata, files: contents, deflate: deflate)
    }
}

extension SyntheticModels {
    /// A raw SSD detector whose outputs do not depend on the picture: input [1, 8, 8, 3] float →
    /// two FULLY_CONNECTED heads with zero weights, so each output is exactly its bias — `boxes`
    /// ([N × 4] raw YXHW values) and `scores` ([N × classes] logits) — reshaped to [1, N, 4] and
    /// [1, N, classes]. With DETECTOR_METADATA (the given anchors, scales 10/10/5/5, exponential
    /// sizes, sigmoid scores), BoundingBoxProperties, normalization 127.5/127.5 and `labels`.
    package static func rawSSD(
        boxes: [Float], scores: [Float], classes: Int, anchors: [DetectorMetadata.Anchor],
        labels: [String]?, displayNames: (locale: String, names: [String])? = nil, subgraphs: Int = 1,
        keypoints: (offset: Int32, count: Int32, values: Int32)? = nil
    ) throws -> [UInt8] {
        let n = anchors.count
        precondition(boxes.count == n * 4 && scores.count == n * classes, "raw values must match the anchors")
        var b = ModelBuilder(description: "synthetic raw SSD")
        b.extraSubgraphCopies = subgraphs - 1
        let input = b.addTensor(Tensor(name: "image", shape: [1, 8, 8, 3], type: .float32))
        let flat = b.addTensor(Tensor(name: "flat", shape: [1, 192], type: .float32))
        let flatShape = b.addConstant(name: "flat_shape", shape: [2], int32s: [1, 192])
        let reshape = b.opcode(OperatorCode(builtinCode: 22))
        let fc = b.opcode(OperatorCode(builtinCode: 9))
        b.operators.append(ModelBuilder.Op(opcodeIndex: reshape, inputs: [input, flatShape], outputs: [flat]))
        func head(_ name: String, _ values: [Float], _ width: Int) -> Int {
            let weights = b.addConstant(
                name: "\(name)_weights", shape: [values.count, 192],
                floats: [Float](repeating: 0, count: values.count * 192))
            let bias = b.addConstant(name: "\(name)_bias", shape: [values.count], floats: values)
            let dense = b.addTensor(Tensor(name: "\(name)_dense", shape: [1, values.count], type: .float32))
            b.operators.append(ModelBuilder.Op(opcodeIndex: fc, inputs: [flat, weights, bias], outputs: [dense]))
            let shape = b.addConstant(name: "\(name)_shape", shape: [3], int32s: [1, Int32(n), Int32(width)])
            let out = b.addTensor(Tensor(name: name, shape: [1, n, width], type: .float32))
            b.operators.append(ModelBuilder.Op(opcodeIndex: reshape, inputs: [dense, shape], outputs: [out]))
            return out
        }
        let boxesOut = head("boxes", boxes, 4)
        let scoresOut = head("scores", scores, classes)
        b.inputs = [input]
        b.outputs = [boxesOut, scoresOut]
        var decoding = DetectorMetadata.DecodingOptions(
            numClasses: Int32(classes), numBoxes: Int32(n), numCoords: 4,
            xScale: 10, yScale: 10, wScale: 5, hScale: 5,
            applyExponentialOnBoxSize: true, sigmoidScore: true)
        if let keypoints {
            decoding.keypointCoordOffset = keypoints.offset
            decoding.numKeypoints = keypoints.count
            decoding.numValuesPerKeypoint = keypoints.values
        }
        let detector = DetectorMetadata(anchors: anchors, decoding: decoding)
        var scoreFiles: [ModelMetadata.AssociatedFile] = []
        var files: [(name: String, contents: [UInt8])] = []
        if let labels {
            scoreFiles = [.init(name: "labels.txt", type: .tensorAxisLabels)]
            files = [("labels.txt", Array(labels.joined(separator: "\n").utf8))]
        }
        if let displayNames {
            let name = "labels_\(displayNames.locale).txt"
            scoreFiles.append(.init(name: name, type: .tensorAxisLabels, locale: displayNames.locale))
            files.append((name, Array(displayNames.names.joined(separator: "\n").utf8)))
        }
        let metadata = ModelMetadata(
            name: "Synthetic raw SSD",
            subgraphs: [
                .init(
                    inputTensors: [
                        .init(
                            name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)),
                            processUnits: [.normalization(mean: [127.5], std: [127.5])])
                    ],
                    outputTensors: [
                        .init(
                            name: "location",
                            content: .init(
                                properties: .boundingBox(
                                    index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio))),
                        .init(name: "score", associatedFiles: scoreFiles),
                    ],
                    customMetadata: [.init(name: DetectorMetadata.name, data: detector.flatBuffer())])
            ],
            minParserVersion: "1.5.0")
        return try b.build(metadata: metadata, files: files)
    }
}

extension SyntheticModels {
    /// One classifier head of ``classifier(heads:normalization:)``.
    package struct Head: Sendable {
        package enum Kind: Sendable {
            /// Float scores equal to `values`.
            case float
            /// Quantized uint8 scores (scale 1/255, zero point 0) of `values`.
            case uint8
            /// A BOOL output: `values[0] > 0`.
            case bool
            /// An INT32 output (not a valid classifier head).
            case int32
        }
        package var name: String?
        package var kind: Kind
        package var values: [Float]
        package var labels: [String]?
        package var displayNames: (locale: String, names: [String])?
        package var calibration: (transformation: ModelMetadata.ScoreTransformation, defaultScore: Float, file: String)?
        package var scoreThreshold: Float?

        package init(
            name: String?, kind: Kind = .float, values: [Float], labels: [String]? = nil,
            displayNames: (locale: String, names: [String])? = nil,
            calibration: (transformation: ModelMetadata.ScoreTransformation, defaultScore: Float, file: String)? = nil,
            scoreThreshold: Float? = nil
        ) {
            self.name = name
            self.kind = kind
            self.values = values
            self.labels = labels
            self.displayNames = displayNames
            self.calibration = calibration
            self.scoreThreshold = scoreThreshold
        }
    }

    /// A classifier whose outputs do not depend on the picture: input [1, 8, 8, 3] float32 (with
    /// `normalization` in its metadata when given) → one FULLY_CONNECTED head per `heads` entry with
    /// zero weights, so each output equals its bias (then QUANTIZE, GREATER or CAST for uint8, bool
    /// and int32 heads). `metadataHeads` (default: all) says how many outputs get tensor metadata.
    /// With `uint8Input`, the input is uint8 (DEQUANTIZE'd inside); with `withMetadata: false`, the
    /// model has no metadata at all.
    package static func classifier(
        heads: [Head], normalization: (mean: Float, std: Float)? = (127.5, 127.5),
        metadataHeads: Int? = nil, uint8Input: Bool = false, withMetadata: Bool = true,
        subgraphs: Int = 1
    ) throws -> [UInt8] {
        var b = ModelBuilder(description: "synthetic classifier")
        b.extraSubgraphCopies = subgraphs - 1
        var input = b.addTensor(
            Tensor(
                name: "image", shape: [1, 8, 8, 3], type: uint8Input ? .uint8 : .float32,
                quantization: uint8Input ? .init(scales: [Float(1) / 255], zeroPoints: [0]) : nil))
        let modelInput = input
        if uint8Input {
            let float = b.addTensor(Tensor(name: "image_float", shape: [1, 8, 8, 3], type: .float32))
            b.operators.append(
                ModelBuilder.Op(
                    opcodeIndex: b.opcode(OperatorCode(builtinCode: 6, version: 2)), inputs: [input], outputs: [float]))
            input = float
        }
        let flat = b.addTensor(Tensor(name: "flat", shape: [1, 192], type: .float32))
        let flatShape = b.addConstant(name: "flat_shape", shape: [2], int32s: [1, 192])
        b.operators.append(
            ModelBuilder.Op(
                opcodeIndex: b.opcode(OperatorCode(builtinCode: 22)), inputs: [input, flatShape], outputs: [flat]))
        var outputs: [Int] = []
        var metadataTensors: [ModelMetadata.TensorMetadata] = []
        var files: [(name: String, contents: [UInt8])] = []
        for (h, head) in heads.enumerated() {
            let n = head.values.count
            let weights = b.addConstant(name: "w\(h)", shape: [n, 192], floats: [Float](repeating: 0, count: n * 192))
            let bias = b.addConstant(name: "b\(h)", shape: [n], floats: head.values)
            let dense = b.addTensor(Tensor(name: "dense\(h)", shape: [1, n], type: .float32))
            b.operators.append(
                ModelBuilder.Op(
                    opcodeIndex: b.opcode(OperatorCode(builtinCode: 9)), inputs: [flat, weights, bias], outputs: [dense]
                ))
            var out = dense
            switch head.kind {
            case .float: break
            case .uint8:
                out = b.addTensor(
                    Tensor(
                        name: "quantized\(h)", shape: [1, n], type: .uint8,
                        quantization: .init(scales: [Float(1) / 255], zeroPoints: [0])))
                b.operators.append(
                    ModelBuilder.Op(
                        opcodeIndex: b.opcode(OperatorCode(builtinCode: 114)), inputs: [dense], outputs: [out]))
            case .bool:
                let zero = b.addConstant(name: "zero\(h)", shape: [1], floats: [0])
                out = b.addTensor(Tensor(name: "bool\(h)", shape: [1, n], type: .bool))
                b.operators.append(
                    ModelBuilder.Op(
                        opcodeIndex: b.opcode(OperatorCode(builtinCode: 61)), inputs: [dense, zero], outputs: [out]))
            case .int32:
                out = b.addTensor(Tensor(name: "int\(h)", shape: [1, n], type: .int32))
                b.operators.append(
                    ModelBuilder.Op(
                        opcodeIndex: b.opcode(OperatorCode(builtinCode: 53)), inputs: [dense], outputs: [out]))
            }
            outputs.append(out)
            var associated: [ModelMetadata.AssociatedFile] = []
            if let labels = head.labels {
                associated.append(.init(name: "labels\(h).txt", type: .tensorAxisLabels))
                files.append(("labels\(h).txt", Array((labels.joined(separator: "\n") + "\n").utf8)))
            }
            if let d = head.displayNames {
                associated.append(.init(name: "labels\(h)_\(d.locale).txt", type: .tensorAxisLabels, locale: d.locale))
                files.append(("labels\(h)_\(d.locale).txt", Array(d.names.joined(separator: "\n").utf8)))
            }
            var units: [ModelMetadata.ProcessUnit] = []
            if let c = head.calibration {
                units.append(.scoreCalibration(transformation: c.transformation, defaultScore: c.defaultScore))
                associated.append(.init(name: "calibration\(h).txt", type: .tensorAxisScoreCalibration))
                files.append(("calibration\(h).txt", Array(c.file.utf8)))
            }
            if let t = head.scoreThreshold { units.append(.scoreThresholding(globalScoreThreshold: t)) }
            metadataTensors.append(
                .init(
                    name: head.name, content: .init(properties: .feature), processUnits: units,
                    associatedFiles: associated))
        }
        b.inputs = [modelInput]
        b.outputs = outputs
        if !withMetadata { return try b.build() }
        var inputUnits: [ModelMetadata.ProcessUnit] = []
        if let normalization { inputUnits.append(.normalization(mean: [normalization.mean], std: [normalization.std])) }
        let metadata = ModelMetadata(
            name: "Synthetic classifier",
            subgraphs: [
                .init(
                    inputTensors: [
                        .init(
                            name: "image", content: .init(properties: .image(colorSpace: .rgb, defaultSize: nil)),
                            processUnits: inputUnits)
                    ],
                    outputTensors: Array(metadataTensors.prefix(metadataHeads ?? metadataTensors.count)))
            ],
            minParserVersion: "1.0.0")
        return try b.build(metadata: metadata, files: files)
    }
}
