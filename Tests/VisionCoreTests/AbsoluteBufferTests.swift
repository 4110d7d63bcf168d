import Foundation
import Imaging
import TFLiteModel
import Testing
import VisionCore
import VisionTestSupport

/// Models whose buffers sit at absolute file offsets behind the flatbuffer (litert-torch's
/// exports, such as Ultralytics' int8 `.tflite`): every rewrite that splices a new head in front —
/// metadata, our custom kernels — moves those offsets with it, so the weights read back unchanged.
@Suite("Buffers at absolute file offsets survive rewrites")
struct AbsoluteBufferTests {
    static let int8 = TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/yolo/yolov8t_int8.tflite").path

    /// Every buffer's bytes, by index.
    static func buffers(_ file: ModelFile) throws -> [[UInt8]?] {
        try (0..<file.bufferCount).map { try file.buffer($0) }
    }

    @Test(
        """
        metadata written into the int8 YOLO export: same buffers, the new metadata and Ultralytics' metadata.json \
        readable
        """
    )
    func metadata() throws {
        let file = try ModelFile(contentsOfFile: Self.int8)
        let original = try Self.buffers(file)
        #expect(original.contains { $0 != nil })
        let labels = Array((YOLOHeadLayoutTests.names.joined(separator: "\n") + "\n").utf8)
        let bytes = try YOLOMetadataWriter.write(
            file, labels: ("labels.txt", labels), classes: 13, description: "YOLO head")
        let written = try ModelFile(bytes: bytes)
        // The old buffers keep their bytes; the metadata's own buffer is the one added.
        #expect(Array(try Self.buffers(written).prefix(original.count)).map { $0 ?? [] } == original.map { $0 ?? [] })
        #expect(try written.modelMetadata()?.subgraphs.first?.outputTensors.first?.description == "YOLO head")
        #expect(try written.ultralyticsMetadata()?.labels == YOLOHeadLayoutTests.names)
        try ModelVerifier.verify(written, limits: .standard)
    }

    /// Release builds look for our kernels' ops by default; that look used to refuse these models
    /// ("buffers at absolute file offsets"). Their int8 1×1 convolutions now run on our kernel (read from
    /// those absolute offsets), with the same detections.
    @Test(
        """
        with our custom kernels enabled (release's default) the int8 YOLO export loads and detects as with LiteRT's \
        alone
        """,
        .enabled(if: TestAssets.shouldRun))
    func customKernels() throws {
        let plain = try ModelResources(path: Self.int8, kernels: .standard.with(hybridDepthwise: false, conv1x1: false))
        let ours = try ModelResources(path: Self.int8, kernels: .standard.with(hybridDepthwise: true, conv1x1: true))
        #expect(plain.customOps.isEmpty && ours.quantizedConvOps > 5)
        let options = DetectorOptions(scoreThreshold: 0.25)
        let a = try ObjectDetectionEngine(resources: plain, options: options),
            b = try ObjectDetectionEngine(resources: ours, options: options)
        var found = 0
        for photo in ["face.jpg", "person.jpg", "grace_hopper.png"] {
            let picture = try ImageDecoder.decode(contentsOfFile: TestAssets.image(photo), jpeg: .openCV)
            let expected = try a.detect(picture.bitmap, orientation: picture.orientation)
            #expect(try b.detect(picture.bitmap, orientation: picture.orientation) == expected, "\(photo)")
            found += expected.count
        }
        #expect(found > 5)
    }
}
