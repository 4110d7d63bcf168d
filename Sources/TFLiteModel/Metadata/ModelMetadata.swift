/// TFLite model metadata (`TFLITE_METADATA`, schema "M001", version 1.5.0): what MediaPipe and ML
/// Kit read to pre- and post-process a model's tensors.
package struct ModelMetadata: Equatable, Sendable {
    /// `AssociatedFileType`.
    package enum AssociatedFileType: Int8, Sendable {
        case unknown = 0, descriptions = 1, tensorAxisLabels = 2, tensorValueLabels = 3
        case tensorAxisScoreCalibration = 4, vocabulary = 5, scannIndexFile = 6
    }

    /// A file packed in the zip appended to the model.
    package struct AssociatedFile: Equatable, Sendable {
        package var name: String
        package var description: String?
        package var type: AssociatedFileType
        package var locale: String?
        package var version: String?
        package init(
            name: String, description: String? = nil, type: AssociatedFileType, locale: String? = nil,
            version: String? = nil
        ) {
            self.name = name
            self.description = description
            self.type = type
            self.locale = locale
            self.version = version
        }
    }

    /// `ColorSpaceType`.
    package enum ColorSpace: Int8, Sendable { case unknown = 0, rgb = 1, grayscale = 2 }
    /// `BoundingBoxType`.
    package enum BoundingBoxType: Int8, Sendable { case unknown = 0, boundaries = 1, upperLeft = 2, center = 3 }
    /// `CoordinateType`.
    package enum CoordinateType: Int8, Sendable { case ratio = 0, pixel = 1 }
    /// `ScoreTransformationType`.
    package enum ScoreTransformation: Int8, Sendable { case identity = 0, log = 1, inverseLogistic = 2 }

    /// `ContentProperties` (a union).
    package enum ContentProperties: Equatable, Sendable {
        case feature
        case image(colorSpace: ColorSpace, defaultSize: (width: UInt32, height: UInt32)?)
        case boundingBox(index: [UInt32], type: BoundingBoxType, coordinateType: CoordinateType)
        case audio(sampleRate: UInt32, channels: UInt32)
        /// A union member this parser does not know (its type number).
        case other(UInt8)

        package static func == (a: ContentProperties, b: ContentProperties) -> Bool {
            switch (a, b) {
            case (.feature, .feature): return true
            case let (.image(c1, s1), .image(c2, s2)):
                return c1 == c2 && s1?.width == s2?.width && s1?.height == s2?.height
            case let (.boundingBox(i1, t1, c1), .boundingBox(i2, t2, c2)): return i1 == i2 && t1 == t2 && c1 == c2
            case let (.audio(r1, c1), .audio(r2, c2)): return r1 == r2 && c1 == c2
            case let (.other(x), .other(y)): return x == y
            default: return false
            }
        }

        /// The union's type number in the schema.
        package var typeCode: UInt8 {
            switch self {
            case .feature: return 1
            case .image: return 2
            case .boundingBox: return 3
            case .audio: return 4
            case .other(let t): return t
            }
        }
    }

    /// `Content`: what a tensor holds.
    package struct Content: Equatable, Sendable {
        package var properties: ContentProperties?
        package var range: ClosedRange<Int32>?
        package init(properties: ContentProperties?, range: ClosedRange<Int32>? = nil) {
            self.properties = properties
            self.range = range
        }
    }

    /// `ProcessUnitOptions` (a union).
    package enum ProcessUnit: Equatable, Sendable {
        case normalization(mean: [Float], std: [Float])
        case scoreCalibration(transformation: ScoreTransformation, defaultScore: Float)
        case scoreThresholding(globalScoreThreshold: Float)
        /// A tokenizer or unknown unit (its union type number).
        case other(UInt8)

        /// The union's type number, which MediaPipe names in its errors.
        package var typeCode: UInt8 {
            switch self {
            case .normalization: return 1
            case .scoreCalibration: return 2
            case .scoreThresholding: return 3
            case .other(let t): return t
            }
        }
    }

    /// Metadata of one input or output tensor.
    package struct TensorMetadata: Equatable, Sendable {
        package var name: String?
        package var description: String?
        package var content: Content?
        package var processUnits: [ProcessUnit]
        package var associatedFiles: [AssociatedFile]
        package var statsMax: [Float]
        package var statsMin: [Float]

        package init(
            name: String? = nil, description: String? = nil, content: Content? = nil, processUnits: [ProcessUnit] = [],
            associatedFiles: [AssociatedFile] = [], statsMax: [Float] = [], statsMin: [Float] = []
        ) {
            self.name = name
            self.description = description
            self.content = content
            self.processUnits = processUnits
            self.associatedFiles = associatedFiles
            self.statsMax = statsMax
            self.statsMin = statsMin
        }

        /// The normalization unit, if any.
        package var normalization: (mean: [Float], std: [Float])? {
            for case let .normalization(mean, std) in processUnits { return (mean, std) }
            return nil
        }

        /// The score-calibration unit, if any.
        package var scoreCalibration: (transformation: ScoreTransformation, defaultScore: Float)? {
            for case let .scoreCalibration(t, d) in processUnits { return (t, d) }
            return nil
        }

        /// The global score threshold, if any.
        package var scoreThreshold: Float? {
            for case let .scoreThresholding(t) in processUnits { return t }
            return nil
        }

        /// The first associated file of `type` (any locale), or of `type` and exactly `locale`.
        package func firstAssociatedFile(ofType type: AssociatedFileType, locale: String? = nil) -> AssociatedFile? {
            associatedFiles.first { $0.type == type && (locale == nil || $0.locale == locale) }
        }
    }

    /// `TensorGroup`.
    package struct TensorGroup: Equatable, Sendable {
        package var name: String?
        package var tensorNames: [String]
        package init(name: String?, tensorNames: [String]) {
            self.name = name
            self.tensorNames = tensorNames
        }
    }

    /// `CustomMetadata`: a named blob (e.g. `DETECTOR_METADATA`).
    package struct CustomMetadata: Equatable, Sendable {
        package var name: String?
        package var data: [UInt8]
        package init(name: String?, data: [UInt8]) {
            self.name = name
            self.data = data
        }
    }

    /// Metadata of one subgraph.
    package struct SubgraphMetadata: Equatable, Sendable {
        package var name: String?
        package var description: String?
        package var inputTensors: [TensorMetadata]
        package var outputTensors: [TensorMetadata]
        package var associatedFiles: [AssociatedFile]
        package var inputProcessUnits: [ProcessUnit]
        package var outputProcessUnits: [ProcessUnit]
        package var inputTensorGroups: [TensorGroup]
        package var outputTensorGroups: [TensorGroup]
        package var customMetadata: [CustomMetadata]

        package init(
            name: String? = nil, description: String? = nil, inputTensors: [TensorMetadata] = [],
            outputTensors: [TensorMetadata] = [],
            associatedFiles: [AssociatedFile] = [], inputProcessUnits: [ProcessUnit] = [],
            outputProcessUnits: [ProcessUnit] = [],
            inputTensorGroups: [TensorGroup] = [], outputTensorGroups: [TensorGroup] = [],
            customMetadata: [CustomMetadata] = []
        ) {
            self.name = name
            self.description = description
            self.inputTensors = inputTensors
            self.outputTensors = outputTensors
            self.associatedFiles = associatedFiles
            self.inputProcessUnits = inputProcessUnits
            self.outputProcessUnits = outputProcessUnits
            self.inputTensorGroups = inputTensorGroups
            self.outputTensorGroups = outputTensorGroups
            self.customMetadata = customMetadata
        }
    }

    package var name: String?
    package var description: String?
    package var version: String?
    package var subgraphs: [SubgraphMetadata]
    package var author: String?
    package var license: String?
    package var associatedFiles: [AssociatedFile]
    package var minParserVersion: String?

    /// The metadata schema version this parser understands.
    package static let parserVersion = "1.5.0"
    /// The metadata flatbuffer's file identifier.
    package static let fileIdentifier = "M001"
    /// The name of the model-metadata entry that holds this flatbuffer.
    package static let entryName = "TFLITE_METADATA"

    package init(
        name: String? = nil, description: String? = nil, version: String? = nil, subgraphs: [SubgraphMetadata] = [],
        author: String? = nil, license: String? = nil, associatedFiles: [AssociatedFile] = [],
        minParserVersion: String? = nil
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.subgraphs = subgraphs
        self.author = author
        self.license = license
        self.associatedFiles = associatedFiles
        self.minParserVersion = minParserVersion
    }

    /// Parses a metadata flatbuffer.
    package init(flatBuffer bytes: [UInt8]) throws {
        let root = try FlatBufferReader(bytes: bytes).root(identifier: Self.fileIdentifier, schema: "metadata")
        name = try root.string(0)
        description = try root.string(1)
        version = try root.string(2)
        subgraphs = try root.tables(3).map(Self.subgraph)
        author = try root.string(4)
        license = try root.string(5)
        associatedFiles = try root.tables(6).map(Self.associatedFile)
        minParserVersion = try root.string(7)
        if let needed = minParserVersion, Self.compareVersions(needed, Self.parserVersion) > 0 {
            throw TFLiteModelError(
                .unsupportedMetadataVersion,
                "Metadata schema version \(Self.parserVersion) is smaller than the minimum version \(needed) to parse "
                    + "the metadata flatbuffer."
            )
        }
    }

    /// Compares dotted versions numerically: <0, 0, >0.
    package static func compareVersions(_ a: String, _ b: String) -> Int {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }
        let y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let l = i < x.count ? x[i] : 0
            let r = i < y.count ? y[i] : 0
            if l != r { return l < r ? -1 : 1 }
        }
        return 0
    }

    static func associatedFile(_ t: FlatTable) throws -> AssociatedFile {
        AssociatedFile(
            name: try t.string(0) ?? "", description: try t.string(1),
            type: AssociatedFileType(rawValue: try t.scalar(2, default: Int8(0))) ?? .unknown,
            locale: try t.string(3), version: try t.string(4))
    }

    static func processUnit(_ t: FlatTable) throws -> ProcessUnit {
        let type: UInt8 = try t.scalar(0, default: 0)
        guard let options = try t.table(1) else { return .other(type) }
        switch type {
        case 1: return .normalization(mean: try options.floats(0), std: try options.floats(1))
        case 2:
            return .scoreCalibration(
                transformation: ScoreTransformation(rawValue: try options.scalar(0, default: Int8(0))) ?? .identity,
                defaultScore: try options.float(1, default: 0))
        case 3: return .scoreThresholding(globalScoreThreshold: try options.float(0, default: 0))
        default: return .other(type)
        }
    }

    static func content(_ t: FlatTable) throws -> Content {
        let type: UInt8 = try t.scalar(0, default: 0)
        var props: ContentProperties?
        if let p = try t.table(1) {
            switch type {
            case 1: props = .feature
            case 2:
                var size: (UInt32, UInt32)?
                if let s = try p.table(1) {
                    size = (try s.scalar(0, default: UInt32(0)), try s.scalar(1, default: UInt32(0)))
                }
                props = .image(
                    colorSpace: ColorSpace(rawValue: try p.scalar(0, default: Int8(0))) ?? .unknown, defaultSize: size)
            case 3:
                props = .boundingBox(
                    index: try p.integers(0, UInt32.self),
                    type: BoundingBoxType(rawValue: try p.scalar(1, default: Int8(0))) ?? .unknown,
                    coordinateType: CoordinateType(rawValue: try p.scalar(2, default: Int8(0))) ?? .ratio)
            case 4: props = .audio(sampleRate: try p.scalar(0, default: 0), channels: try p.scalar(1, default: 0))
            default: props = .other(type)
            }
        } else if type != 0 {
            props = .other(type)
        }
        var range: ClosedRange<Int32>?
        if let r = try t.table(2) {
            let lo: Int32 = try r.scalar(0, default: 0)
            let hi: Int32 = try r.scalar(1, default: 0)
            if lo <= hi { range = lo...hi }
        }
        return Content(properties: props, range: range)
    }

    static func tensor(_ t: FlatTable) throws -> TensorMetadata {
        var stats: ([Float], [Float]) = ([], [])
        if let s = try t.table(5) { stats = (try s.floats(0), try s.floats(1)) }
        return TensorMetadata(
            name: try t.string(0), description: try t.string(1),
            content: try t.table(3).map(content),
            processUnits: try t.tables(4).map(processUnit),
            associatedFiles: try t.tables(6).map(associatedFile),
            statsMax: stats.0, statsMin: stats.1)
    }

    static func subgraph(_ t: FlatTable) throws -> SubgraphMetadata {
        SubgraphMetadata(
            name: try t.string(0), description: try t.string(1),
            inputTensors: try t.tables(2).map(tensor), outputTensors: try t.tables(3).map(tensor),
            associatedFiles: try t.tables(4).map(associatedFile),
            inputProcessUnits: try t.tables(5).map(processUnit), outputProcessUnits: try t.tables(6).map(processUnit),
            inputTensorGroups: try t.tables(7).map {
                TensorGroup(name: try $0.string(0), tensorNames: try $0.strings(1))
            },
            outputTensorGroups: try t.tables(8).map {
                TensorGroup(name: try $0.string(0), tensorNames: try $0.strings(1))
            },
            customMetadata: try t.tables(9).map { CustomMetadata(name: try $0.string(0), data: try $0.bytes(1) ?? []) })
    }
}
