/// The options of the `TFLite_Detection_PostProcess` custom op (SSD decoding + NMS inside the model).
package struct DetectionPostProcessOptions: Equatable, Sendable {
    package var maxDetections: Int
    package var maxClassesPerDetection: Int
    package var detectionsPerClass: Int
    package var numClasses: Int
    package var nmsScoreThreshold: Float
    package var nmsIouThreshold: Float
    package var yScale: Float
    package var xScale: Float
    package var hScale: Float
    package var wScale: Float
    package var useRegularNms: Bool

    /// The custom op's name in `.tflite` files.
    package static let opName = "TFLite_Detection_PostProcess"

    package init(
        maxDetections: Int = 10, maxClassesPerDetection: Int = 1, detectionsPerClass: Int = 100, numClasses: Int,
        nmsScoreThreshold: Float, nmsIouThreshold: Float, yScale: Float = 10, xScale: Float = 10,
        hScale: Float = 5, wScale: Float = 5, useRegularNms: Bool = false
    ) {
        self.maxDetections = maxDetections
        self.maxClassesPerDetection = maxClassesPerDetection
        self.detectionsPerClass = detectionsPerClass
        self.numClasses = numClasses
        self.nmsScoreThreshold = nmsScoreThreshold
        self.nmsIouThreshold = nmsIouThreshold
        self.yScale = yScale
        self.xScale = xScale
        self.hScale = hScale
        self.wScale = wScale
        self.useRegularNms = useRegularNms
    }

    /// Parses the op's FlexBuffer options. Missing keys take TFLite's defaults
    /// (max_classes_per_detection 1, detections_per_class 100, scales 10/10/5/5, fast NMS).
    package init(flexBuffer bytes: [UInt8]) throws {
        guard case .map(let m) = try FlexBufferReader.parse(bytes) else {
            throw TFLiteModelError(.invalidCustomOptions, "\(Self.opName) options are not a FlexBuffer map.")
        }
        func int(_ key: String, _ fallback: Int?) throws -> Int {
            if let value = m[key] {
                guard let v = value.intValue else {
                    throw TFLiteModelError(
                        .invalidCustomOptions, "\(Self.opName) option '\(key)' is not an integer in range.")
                }
                return v
            }
            if let fallback { return fallback }
            throw TFLiteModelError(.invalidCustomOptions, "\(Self.opName) options lack '\(key)'.")
        }
        func float(_ key: String, _ fallback: Float?) throws -> Float {
            if let value = m[key] {
                guard let v = value.doubleValue else {
                    throw TFLiteModelError(.invalidCustomOptions, "\(Self.opName) option '\(key)' is not a number.")
                }
                return Float(v)
            }
            if let fallback { return fallback }
            throw TFLiteModelError(.invalidCustomOptions, "\(Self.opName) options lack '\(key)'.")
        }
        self.init(
            maxDetections: try int("max_detections", nil),
            maxClassesPerDetection: try int("max_classes_per_detection", 1),
            detectionsPerClass: try int("detections_per_class", 100),
            numClasses: try int("num_classes", nil),
            nmsScoreThreshold: try float("nms_score_threshold", nil),
            nmsIouThreshold: try float("nms_iou_threshold", nil),
            yScale: try float("y_scale", 10), xScale: try float("x_scale", 10),
            hScale: try float("h_scale", 5), wScale: try float("w_scale", 5),
            useRegularNms: m["use_regular_nms"]?.boolValue ?? false)
    }
}
