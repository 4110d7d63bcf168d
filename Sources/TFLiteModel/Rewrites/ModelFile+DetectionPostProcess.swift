import CKernelFormats

/// The op VisionTasks' exact detection post-processing kernel takes (see `customKernelOps`): a
/// `TFLite_Detection_PostProcess` with fast NMS and one class per detection (`use_regular_nms` false,
/// `max_classes_per_detection` 1), an IoU threshold in (0, 1], float32 box encodings, scores and
/// anchors, or uint8 box encodings and anchors (per-tensor quantization) with float32 or uint8 scores,
/// constant anchors of no negative size, and outputs LiteRT's built-in kernel would accept. The
/// rewritten op's inputs are the box encodings and the scores; its custom options: "VTDP", version 1,
/// nine int32 (version, max detections, classes, anchors, box type, box zero point, score type, score
/// zero point, anchor zero point), nine float32 (score threshold, IoU threshold, y/x/h/w scales, box,
/// score and anchor scales), the anchors' bytes padded to 4 (little endian).
extension ModelFile {
    /// The custom options and the rewritten op's inputs for op `op` if it is a detection
    /// post-processing op our kernel computes.
    func detectionPostProcessOptions(_ op: Operator, _ sg: Subgraph) throws -> (options: [UInt8], inputs: [Int])? {
        guard operatorCodes.indices.contains(op.opcodeIndex),
            operatorCodes[op.opcodeIndex].builtinCode == OperatorCode.custom,
            operatorCodes[op.opcodeIndex].customCode == DetectionPostProcessOptions.opName,
            let raw = op.customOptions, op.inputs.count == 3, op.outputs.count == 4,
            op.inputs.allSatisfy({ sg.tensors.indices.contains($0) }),
            op.outputs.allSatisfy({ sg.tensors.indices.contains($0) })
        else { return nil }
        guard let o = try? DetectionPostProcessOptions(flexBuffer: raw), !o.useRegularNms,
            o.maxClassesPerDetection == 1, (1...65536).contains(o.maxDetections), (1...65536).contains(o.numClasses),
            o.nmsIouThreshold > 0, o.nmsIouThreshold <= 1
        else { return nil }
        let boxes = sg.tensors[op.inputs[0]], scores = sg.tensors[op.inputs[1]], anchors = sg.tensors[op.inputs[2]]
        guard boxes.shape.count == 3, scores.shape.count == 3, anchors.shape.count == 2, boxes.shape[0] == 1,
            scores.shape[0] == 1, boxes.shape[2] >= 4, anchors.shape[1] == 4
        else { return nil }
        let n = anchors.shape[0]
        let withBackground = scores.shape[2] - o.numClasses
        guard n >= 1, n <= 1 << 24, boxes.shape[1] == n, scores.shape[1] == n,
            withBackground == 0 || withBackground == 1,
            anchors.buffer > 0, sg.tensors[op.outputs[0]].type == .float32,
            op.outputs.allSatisfy({ sg.tensors[$0].type == .float32 })
        else { return nil }
        func code(_ t: TensorType) -> Int32? { t == .float32 ? 1 : t == .uint8 ? 3 : nil }
        guard let boxType = code(boxes.type), let scoreType = code(scores.type), code(anchors.type) == boxType else {
            return nil
        }
        var bq: (scale: Float, zeroPoint: Int32) = (1, 0), sq = bq, aq = bq
        if boxType == 3 {
            guard let b = Self.perTensor(boxes), let a = Self.perTensor(anchors) else { return nil }
            (bq, aq) = (b, a)
        }
        if scoreType == 3 {
            guard let s = Self.perTensor(scores) else { return nil }
            sq = s
        }
        let bytesPerValue = boxType == 3 ? 1 : 4
        guard let anchorBytes = try buffer(anchors.buffer), anchorBytes.count == n * 4 * bytesPerValue else {
            return nil
        }
        // An anchor of negative height or width makes the built-in fail the whole op: left to it.
        let anchorValues: [Float] =
            boxType == 3
            ? anchorBytes.map { (Float($0) - Float(aq.zeroPoint)) * aq.scale }
            : anchorBytes.withUnsafeBytes { raw in
                (0..<n * 4).map {
                    Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
                }
            }
        if (0..<n).contains(where: { anchorValues[$0 * 4 + 2] < 0 || anchorValues[$0 * 4 + 3] < 0 }) { return nil }
        var out: [UInt8] = Array(VT_OPTIONS_DP_MAGIC.utf8)
        func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        for v in [
            Int32(VT_OPTIONS_DP_VERSION), Int32(o.maxDetections), Int32(o.numClasses), Int32(n), boxType, bq.zeroPoint,
            scoreType, sq.zeroPoint,
            aq.zeroPoint,
        ] { int32(v) }
        let floats = [o.nmsScoreThreshold, o.nmsIouThreshold, o.yScale, o.xScale, o.hScale, o.wScale]
        for v in floats + [bq.scale, sq.scale, aq.scale] {
            withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 }
        }
        out += anchorBytes
        out += [UInt8](repeating: 0, count: (4 - anchorBytes.count % 4) % 4)
        return (out, [op.inputs[0], op.inputs[1]])
    }
}
