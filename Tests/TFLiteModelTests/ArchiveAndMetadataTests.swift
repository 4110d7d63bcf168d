import Foundation
import TFLiteModel
import Testing
import VisionTestSupport

@Suite("Zip archives, metadata, labels and calibration files")
struct ArchiveAndMetadataTests {
    let files: [(name: String, contents: [UInt8])] = [
        ("labels.txt", Array("cat\ndog\nbird\n".utf8)),
        ("big.txt", Array(String(repeating: "a long repeated line of text\n", count: 200).utf8)),
        ("empty.bin", []),
    ]

    @Test("reads stored and deflated entries back byte for byte", arguments: [false, true])
    func roundTrip(deflate: Bool) throws {
        let prefix = [UInt8](repeating: 7, count: 1000)  // the model bytes before the archive
        let zip = try ZipArchive.write(files, deflate: deflate)
        let archive = try #require(try ZipArchive(bytes: prefix + zip))
        #expect(archive.names == ["labels.txt", "big.txt", "empty.bin"])
        #expect(archive.entries.map(\.method) == [UInt16](repeating: deflate ? 8 : 0, count: 3))
        for f in files { #expect(try archive.contents(of: f.name) == f.contents) }
        if deflate { #expect(archive.entries[1].compressedSize < archive.entries[1].uncompressedSize / 5) }
    }

    @Test("accepts offsets relative to the whole file as well as to the archive")
    func absoluteOffsets() throws {
        let prefix = [UInt8](repeating: 1, count: 333)
        var zip = try ZipArchive.write(files, deflate: true)
        // Rewrite the archive so its offsets count from the start of the file.
        let eocd = zip.count - 22
        let cdOffset = Int(zip[eocd + 16]) | Int(zip[eocd + 17]) << 8 | Int(zip[eocd + 18]) << 16
        func add(_ p: Int, _ delta: Int) {
            let v = (Int(zip[p]) | Int(zip[p + 1]) << 8 | Int(zip[p + 2]) << 16 | Int(zip[p + 3]) << 24) + delta
            for i in 0..<4 { zip[p + i] = UInt8((v >> (8 * i)) & 0xff) }
        }
        var p = cdOffset
        for _ in files {
            add(p + 42, prefix.count)
            let n = Int(zip[p + 28]) | Int(zip[p + 29]) << 8
            p += 46 + n
        }
        add(eocd + 16, prefix.count)
        let archive = try #require(try ZipArchive(bytes: prefix + zip))
        #expect(try archive.contents(of: "labels.txt") == files[0].contents)
    }

    @Test("a zip with a bad entry offset is a typed error")
    func badOffset() throws {
        var zip = try ZipArchive.write(files, deflate: false)
        let eocd = zip.count - 22
        let cdOffset = Int(zip[eocd + 16]) | Int(zip[eocd + 17]) << 8
        zip[cdOffset + 42] = 0xF0  // local header offset of the first entry
        zip[cdOffset + 43] = 0x0F
        do {
            _ = try ZipArchive(bytes: zip)
            Issue.record("a bad offset was accepted")
        } catch let e as TFLiteModelError {
            #expect(e.code == .invalidZip)
            #expect(e.message.contains("'labels.txt' points to offset"))
        }
    }

    @Test("corrupt deflate data and a wrong CRC are refused")
    func corruptData() throws {
        var zip = try ZipArchive.write([("big.txt", files[1].contents)], deflate: true)
        zip[40] ^= 0xFF
        zip[41] ^= 0xFF
        let archive = try #require(try ZipArchive(bytes: zip))
        #expect(throws: TFLiteModelError.self) { try archive.contents(of: "big.txt") }
    }

    @Test("a missing associated file is NOT_FOUND-worded")
    func missingFile() throws {
        let archive = try #require(try ZipArchive(bytes: try ZipArchive.write(files, deflate: false)))
        do {
            _ = try archive.contents(of: "nope.txt")
            Issue.record("found a missing file")
        } catch let e as TFLiteModelError {
            #expect(e.code == .associatedFileNotFound)
            #expect(e.message == "No associated file with name: nope.txt")
        }
    }

    @Test("bytes without a zip have no archive")
    func noZip() throws {
        #expect(try ZipArchive(bytes: [UInt8](repeating: 0, count: 100)) == nil)
    }

    @Test("metadata with the wrong identifier is refused with MediaPipe's message")
    func wrongIdentifier() throws {
        var bytes = ModelMetadata(name: "x").flatBuffer()
        bytes.replaceSubrange(4..<8, with: Array("M002".utf8))
        do {
            _ = try ModelMetadata(flatBuffer: bytes)
            Issue.record("accepted M002")
        } catch let e as TFLiteModelError {
            #expect(e.code == .invalidMetadataIdentifier)
            #expect(e.message == "Invalid metadata schema version: expected M001, got M002")
        }
    }

    @Test("metadata that needs a newer parser is refused")
    func newerParser() throws {
        let bytes = ModelMetadata(name: "x", minParserVersion: "9.0.0").flatBuffer()
        do {
            _ = try ModelMetadata(flatBuffer: bytes)
            Issue.record("accepted a newer schema")
        } catch let e as TFLiteModelError {
            #expect(
                e.message
                    == "Metadata schema version 1.5.0 is smaller than the minimum version 9.0.0 to parse the metadata "
                    + "flatbuffer."
            )
        }
    }

    @Test("metadata written by the builder reads back identically")
    func metadataRoundTrip() throws {
        let md = ModelMetadata(
            name: "Round trip", description: "d", version: "v2",
            subgraphs: [
                ModelMetadata.SubgraphMetadata(
                    name: "sg",
                    inputTensors: [
                        ModelMetadata.TensorMetadata(
                            name: "image",
                            content: .init(properties: .image(colorSpace: .rgb, defaultSize: (224, 224))),
                            processUnits: [.normalization(mean: [1, 2, 3], std: [4, 5, 6])], statsMax: [255],
                            statsMin: [0])
                    ],
                    outputTensors: [
                        ModelMetadata.TensorMetadata(
                            name: "location",
                            content: .init(
                                properties: .boundingBox(
                                    index: [1, 0, 3, 2], type: .boundaries, coordinateType: .ratio), range: 2...2)),
                        ModelMetadata.TensorMetadata(
                            name: "score",
                            processUnits: [
                                .scoreCalibration(transformation: .inverseLogistic, defaultScore: 0.2),
                                .scoreThresholding(globalScoreThreshold: 0.5),
                            ],
                            associatedFiles: [
                                .init(name: "calibration.txt", type: .tensorAxisScoreCalibration),
                                .init(
                                    name: "labels_fr.txt", description: "French", type: .tensorAxisLabels, locale: "fr",
                                    version: "3"),
                            ]),
                    ],
                    outputTensorGroups: [.init(name: "detection result", tensorNames: ["location", "score"])],
                    customMetadata: [.init(name: "DETECTOR_METADATA", data: [1, 2, 3, 4, 5])])
            ],
            author: "us", license: "Apache-2.0",
            associatedFiles: [.init(name: "readme.txt", type: .descriptions)], minParserVersion: "1.5.0")
        #expect(try ModelMetadata(flatBuffer: md.flatBuffer()) == md)
    }

    @Test("a built model with metadata and files reads back")
    func builtModel() throws {
        let bytes = try SyntheticModels.addConstantWithMetadata(
            mean: [127.5], std: [127.5], labels: ["cat", "dog"],
            localized: ("fr", ["chat", "chien"]), deflate: true)
        let model = try ModelFile(bytes: bytes)
        #expect(model.subgraphs[0].inputTensors.first?.shape == [1, 4, 4, 3])
        #expect(model.operatorNames() == ["ADD"])
        let out = try #require(try model.modelMetadata()?.subgraphs.first?.outputTensors.first)
        let labels = try #require(
            try LabelMap.load(tensor: out, type: .tensorAxisLabels, locale: "fr", archive: model.associatedFiles()))
        #expect(labels == LabelMap(names: ["cat", "dog"], displayNames: ["chat", "chien"]))
        let constant = model.subgraphs[0].tensors[1]
        #expect(try model.buffer(constant.buffer) == [0, 0, 0, 0x3f])
    }

    @Test("label files: one per line, CRLF, one trailing newline dropped, empty refused")
    func labelLines() throws {
        #expect(try LabelMap.parseLines(Array("a\nb\n".utf8)) == ["a", "b"])
        #expect(try LabelMap.parseLines(Array("a\r\nb\r\n".utf8)) == ["a", "b"])
        #expect(try LabelMap.parseLines(Array("a\n\nc".utf8)) == ["a", "", "c"])
        #expect(try LabelMap.parseLines(Array("a\n\n".utf8)) == ["a", ""])
        do {
            _ = try LabelMap.parseLines([])
            Issue.record("empty labels accepted")
        } catch let e as TFLiteModelError {
            #expect(e.message == "Expected non-empty labels file.")
        }
    }

    @Test("display names whose count differs from the labels are refused")
    func displayNameMismatch() throws {
        let bytes = try SyntheticModels.addConstantWithMetadata(
            mean: [0], std: [1], labels: ["a", "b"], localized: ("de", ["x"]))
        let model = try ModelFile(bytes: bytes)
        let out = try #require(try model.modelMetadata()?.subgraphs.first?.outputTensors.first)
        do {
            _ = try LabelMap.load(tensor: out, type: .tensorAxisLabels, locale: "de", archive: model.associatedFiles())
            Issue.record("mismatch accepted")
        } catch let e as TFLiteModelError {
            #expect(e.message == "Mismatch between number of labels (2) and display names (1).")
        }
    }

    @Test("score calibration files parse, apply the sigmoid, and refuse bad lines")
    func scoreCalibration() throws {
        let c = try ScoreCalibration(
            fileContents: Array("1.0,2.0,0.5\n\n0.9,1,0,0.3\n".utf8), transformation: .identity, defaultScore: 0.1)
        #expect(c.sigmoids.count == 3 && c.sigmoids[1] == nil)
        #expect(abs(c.calibrate(0.5, classIndex: 0) - 1 / (1 + exp(-1.5))) < 1e-6)
        #expect(c.calibrate(0.9, classIndex: 1) == 0.1)
        #expect(c.calibrate(0.2, classIndex: 2) == 0.1)  // at or below min_score
        #expect(c.calibrate(0.9, classIndex: 7) == 0.1)  // no parameters
        let log = try ScoreCalibration(
            fileContents: Array("1,1,0".utf8), transformation: .inverseLogistic, defaultScore: 0)
        #expect(abs(log.calibrate(0.7, classIndex: 0) - 0.7) < 1e-6)
        func message(_ text: String) -> String? {
            do {
                _ = try ScoreCalibration(fileContents: Array(text.utf8), transformation: .identity, defaultScore: 0);
                return nil
            } catch let e
                as TFLiteModelError
            { return e.message } catch { return "\(error)" }
        }
        #expect(message("1,2") == "Expected 3 or 4 parameters per line in score calibration file, got 2.")
        #expect(message("1,x,3") == "Could not parse score calibration parameter as float: x.")
        #expect(message("-1,2,3") == "The scale parameter of the sigmoids must be positive, found -1.0.")
        #expect(message("") == "Expected non-empty score calibration file.")
    }

    @Test("FlexBuffer maps parse; 8-byte lengths of 2^64−1 and bad widths throw instead of trapping")
    func flexBuffers() throws {
        let bytes = FlexBufferBuilder.map(["a": .int(5), "b": .float(0.5), "c": .bool(true), "d": .uint(7)])
        #expect(
            try FlexBufferReader.parse(bytes)
                == .map(["a": .int(5), "b": .float(0.5), "c": .bool(true), "d": .uint(7)]))
        // The map's length field sits 8 bytes before its first value (the root points there).
        let rootOffset = Int(bytes[bytes.count - 10]) | Int(bytes[bytes.count - 9]) << 8
        let values = bytes.count - 10 - rootOffset
        var huge = bytes
        for i in (values - 8)..<values { huge[i] = 0xFF }
        #expect(throws: TFLiteModelError.self) { try FlexBufferReader.parse(huge) }
        var keysWidth = bytes
        for i in (values - 16)..<(values - 8) { keysWidth[i] = 0xFF }
        #expect(throws: TFLiteModelError.self) { try FlexBufferReader.parse(keysWidth) }
        #expect(throws: TFLiteModelError.self) { try FlexBufferReader.parse([1]) }
        #expect(
            FlexValue.float(1e30).intValue == nil && FlexValue.float(.nan).intValue == nil
                && FlexValue.float(3).intValue == 3)
    }
}

@Suite("DETECTOR_METADATA")
struct DetectorMetadataTests {
    @Test("anchors and decoding options round-trip through the V001 flatbuffer")
    func roundTrip() throws {
        let md = DetectorMetadata(
            anchors: [
                .init(xCenter: 0.1, yCenter: 0.2, width: 1, height: 1),
                .init(xCenter: 0.5, yCenter: 0.5, width: 0.3, height: 0.4),
            ],
            decoding: .init(
                numClasses: 1, numBoxes: 2, numCoords: 16, keypointCoordOffset: 4, numKeypoints: 6,
                numValuesPerKeypoint: 2, xScale: 128, yScale: 128, wScale: 128, hScale: 128,
                applyExponentialOnBoxSize: false, sigmoidScore: true))
        #expect(try DetectorMetadata(flatBuffer: md.flatBuffer()) == md)
        let empty = DetectorMetadata(anchors: nil, decoding: nil)
        #expect(try DetectorMetadata(flatBuffer: empty.flatBuffer()) == empty)
    }

    @Test("a wrong identifier is refused")
    func identifier() throws {
        var bytes = DetectorMetadata(anchors: [], decoding: nil).flatBuffer()
        bytes.replaceSubrange(4..<8, with: Array("M001".utf8))
        #expect(throws: TFLiteModelError.self) { try DetectorMetadata(flatBuffer: bytes) }
    }
}

@Suite("Adding metadata to an existing model", .enabled(if: TestAssets.shouldRun))
struct ReplacingMetadataTests {
    @Test("the SSD model without metadata gets the shared variant's metadata and labels, everything else unchanged")
    func addToSSD() throws {
        let bare = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_no_metadata.tflite"))
        let reference = try ModelFile(contentsOfFile: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"))
        let metadata = try #require(try reference.modelMetadata())
        let labels = try #require(try reference.associatedFiles()).contents(of: "labels.txt")
        let bytes = try bare.replacingMetadata(metadata, files: [("labels.txt", labels)], deflate: true)
        let augmented = try ModelFile(bytes: bytes)
        #expect(try augmented.modelMetadata() == metadata)
        #expect(try augmented.associatedFiles()?.contents(of: "labels.txt") == labels)
        #expect(augmented.subgraphs == bare.subgraphs)
        #expect(augmented.operatorCodes == bare.operatorCodes)
        #expect(try augmented.detectionPostProcessOptions() == bare.detectionPostProcessOptions())
        for i in 0..<bare.bufferCount { #expect(try augmented.buffer(i) == bare.buffer(i)) }
        #expect(augmented.bufferCount == bare.bufferCount + 1)
        // Replacing again keeps one TFLITE_METADATA entry.
        let again = try ModelFile(bytes: try augmented.replacingMetadata(ModelMetadata(name: "second"), files: []))
        #expect(again.metadataEntries.filter { $0.name == ModelMetadata.entryName }.count == 1)
        #expect(try again.modelMetadata()?.name == "second")
        #expect(try again.associatedFiles() == nil)
    }
}

@Suite("Rewriting hybrid models", .enabled(if: TestAssets.shouldRun))
struct HybridRewriteTests {
    @Test("int8 depthwise filters of a float model are read through DEQUANTIZE ops; everything else is kept")
    func rewrite() throws {
        let file = try ModelFile(
            contentsOfFile: TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite"))
        let rewritten = try ModelFile(bytes: try #require(try file.dequantizingHybridDepthwiseFilters()))
        let before = file.subgraphs[0], after = rewritten.subgraphs[0]
        let depthwise = before.operators.filter {
            file.operatorCodes[$0.opcodeIndex].name == "DEPTHWISE_CONV_2D" && before.tensors[$0.inputs[1]].type == .int8
        }
        #expect(after.operators.count == before.operators.count + depthwise.count)
        #expect(after.tensors.count == before.tensors.count + depthwise.count)
        #expect(Array(after.tensors.prefix(before.tensors.count)) == before.tensors)
        #expect(after.inputs == before.inputs && after.outputs == before.outputs)
        var k = 0
        for (i, op) in after.operators.enumerated()
        where rewritten.operatorCodes[op.opcodeIndex].name == "DEPTHWISE_CONV_2D"
            && op.inputs[1] >= before.tensors.count
        {
            let dq = after.operators[i - 1]
            #expect(rewritten.operatorCodes[dq.opcodeIndex].name == "DEQUANTIZE")
            #expect(dq.outputs == [op.inputs[1]])
            let original = before.tensors[dq.inputs[0]]
            #expect(original.type == .int8)
            let float = after.tensors[op.inputs[1]]
            #expect(
                float.type == .float32 && float.shape == original.shape && float.name == original.name + "/dequantized"
                    && float.buffer == 0)
            k += 1
        }
        #expect(k == depthwise.count && k > 0)
        for i in 0..<file.bufferCount { #expect(try rewritten.buffer(i) == file.buffer(i)) }
        #expect(try rewritten.modelMetadata() == file.modelMetadata())
        #expect(
            try rewritten.associatedFiles()?.contents(of: "labels.txt")
                == file.associatedFiles()?.contents(of: "labels.txt"))
        #expect(try rewritten.detectionPostProcessOptions() == file.detectionPostProcessOptions())
    }

    @Test("models without hybrid depthwise convolutions are left alone")
    func untouched() throws {
        for name in [
            "ssd_mobilenet_v1_coco_quant_metadata.tflite", "mobilenet_v2_1.0_224_quant.tflite",
            "face_detection_short_range.tflite",
        ] {
            #expect(
                try ModelFile(contentsOfFile: TestAssets.model(name)).dequantizingHybridDepthwiseFilters() == nil,
                "\(name)")
        }
    }
}
