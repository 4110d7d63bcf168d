/// `DETECTOR_METADATA`: the custom metadata (flatbuffer "V001") that tells MediaPipe how to decode a
/// raw SSD detector's outputs — its anchors and box/score decoding options.
package struct DetectorMetadata: Equatable, Sendable {
    /// A fixed anchor, in normalized coordinates.
    package struct Anchor: Equatable, Sendable {
        package var xCenter: Float, yCenter: Float, width: Float, height: Float
        package init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
            self.xCenter = xCenter
            self.yCenter = yCenter
            self.width = width
            self.height = height
        }
    }

    /// `TensorsDecodingOptions`.
    package struct DecodingOptions: Equatable, Sendable {
        package var numClasses: Int32
        package var numBoxes: Int32
        package var numCoords: Int32
        package var keypointCoordOffset: Int32
        package var numKeypoints: Int32
        package var numValuesPerKeypoint: Int32
        package var xScale: Float, yScale: Float, wScale: Float, hScale: Float
        package var applyExponentialOnBoxSize: Bool
        package var sigmoidScore: Bool

        package init(
            numClasses: Int32, numBoxes: Int32, numCoords: Int32, keypointCoordOffset: Int32 = 0,
            numKeypoints: Int32 = 0,
            numValuesPerKeypoint: Int32 = 2, xScale: Float, yScale: Float, wScale: Float, hScale: Float,
            applyExponentialOnBoxSize: Bool = true, sigmoidScore: Bool = true
        ) {
            self.numClasses = numClasses
            self.numBoxes = numBoxes
            self.numCoords = numCoords
            self.keypointCoordOffset = keypointCoordOffset
            self.numKeypoints = numKeypoints
            self.numValuesPerKeypoint = numValuesPerKeypoint
            self.xScale = xScale
            self.yScale = yScale
            self.wScale = wScale
            self.hScale = hScale
            self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
            self.sigmoidScore = sigmoidScore
        }
    }

    /// The custom-metadata name under which this lives in `SubGraphMetadata.custom_metadata`.
    package static let name = "DETECTOR_METADATA"
    package static let fileIdentifier = "V001"

    package var minParserVersion: String?
    /// nil when the metadata has no `ssd_anchors_options`.
    package var anchors: [Anchor]?
    /// nil when the metadata has no `tensors_decoding_options`.
    package var decoding: DecodingOptions?

    package init(minParserVersion: String? = "1.0.0", anchors: [Anchor]?, decoding: DecodingOptions?) {
        self.minParserVersion = minParserVersion
        self.anchors = anchors
        self.decoding = decoding
    }

    /// Parses the flatbuffer.
    package init(flatBuffer bytes: [UInt8]) throws {
        let root = try FlatBufferReader(bytes: bytes).root(
            identifier: Self.fileIdentifier, schema: "object detector metadata")
        minParserVersion = try root.string(0)
        if let ssd = try root.table(1) {
            let schema = try ssd.table(0)
            anchors =
                try schema?.tables(0).map {
                    Anchor(
                        xCenter: try $0.float(0, default: 0), yCenter: try $0.float(1, default: 0),
                        width: try $0.float(2, default: 0), height: try $0.float(3, default: 0))
                } ?? []
        } else {
            anchors = nil
        }
        if let d = try root.table(2) {
            decoding = DecodingOptions(
                numClasses: try d.scalar(0, default: 0), numBoxes: try d.scalar(1, default: 0),
                numCoords: try d.scalar(2, default: 0), keypointCoordOffset: try d.scalar(3, default: 0),
                numKeypoints: try d.scalar(4, default: 0), numValuesPerKeypoint: try d.scalar(5, default: 0),
                xScale: try d.float(6, default: 0), yScale: try d.float(7, default: 0),
                wScale: try d.float(8, default: 0), hScale: try d.float(9, default: 0),
                applyExponentialOnBoxSize: try d.bool(10), sigmoidScore: try d.bool(11))
        } else {
            decoding = nil
        }
    }

    /// Serializes as a "V001" flatbuffer.
    package func flatBuffer() -> [UInt8] {
        var b = FlatBufferBuilder()
        let version = minParserVersion.map { b.string($0) }
        var ssd: FlatBufferBuilder.Offset?
        if let anchors {
            let items = anchors.map { a -> FlatBufferBuilder.Offset in
                b.startTable()
                b.add(0, a.xCenter); b.add(1, a.yCenter); b.add(2, a.width); b.add(3, a.height)
                return b.endTable()
            }
            let vector = b.vector(items)
            b.startTable(); b.add(0, vector); let schema = b.endTable()
            b.startTable(); b.add(0, schema); ssd = b.endTable()
        }
        var decodingTable: FlatBufferBuilder.Offset?
        if let d = decoding {
            b.startTable()
            b.add(0, d.numClasses); b.add(1, d.numBoxes); b.add(2, d.numCoords); b.add(3, d.keypointCoordOffset)
            b.add(4, d.numKeypoints); b.add(5, d.numValuesPerKeypoint)
            b.add(6, d.xScale); b.add(7, d.yScale); b.add(8, d.wScale); b.add(9, d.hScale)
            b.add(10, d.applyExponentialOnBoxSize); b.add(11, d.sigmoidScore)
            decodingTable = b.endTable()
        }
        b.startTable()
        if let version { b.add(0, version) }
        if let ssd { b.add(1, ssd) }
        if let decodingTable { b.add(2, decodingTable) }
        let root = b.endTable()
        return b.finish(root, fileIdentifier: Self.fileIdentifier)
    }
}
