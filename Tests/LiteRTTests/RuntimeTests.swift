import Foundation
import LiteRT
import TFLiteModel
import Testing
import VisionTestSupport

/// Whether the LiteRT library can be loaded; on CI its absence fails the tests instead of skipping them.
enum Runtime {
    static let available: Bool = (try? LiteRTLibrary.shared()) != nil
    static var shouldRun: Bool { available || TestAssets.isCI }
}

@Suite("The LiteRT runtime")
struct RuntimeTests {
    @Test(
        """
        the search: .litert/lib from the executable's directory upwards, pip installs of 2.3.0 (other versions \
        named, not loaded)
        """
    )
    func searchPlaces() throws {
        let exe = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent()
        #expect(LiteRTLibrary.executableDirectory == exe)
        let list = LiteRTLibrary.candidates(explicit: nil, environment: [:])
        #expect(list.contains(exe.appendingPathComponent(".litert/lib/libLiteRt.so").path))
        #expect(
            list.contains(
                exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    ".litert/lib/libLiteRt.so"
                ).path))
        #expect(list.last == "libLiteRt.so")

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vt-pip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func install(_ prefix: String, _ version: String) throws -> String {
            let site = root.appendingPathComponent(prefix).appendingPathComponent("lib/python3.11/site-packages")
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent("ai_edge_litert"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent("ai_edge_litert-\(version).dist-info"),
                withIntermediateDirectories: true)
            let lib = site.appendingPathComponent("ai_edge_litert/libLiteRt.so")
            try Data("not a library".utf8).write(to: lib)
            return lib.path
        }
        let pinned = try install("venv", "2.3.0")
        let other = try install("conda", "1.4.0")
        let environment = [
            "VIRTUAL_ENV": root.appendingPathComponent("venv").path,
            "CONDA_PREFIX": root.appendingPathComponent("conda").path,
            "HOME": root.path,
        ]
        let found = LiteRTLibrary.candidates(explicit: nil, environment: environment)
        #expect(found.contains(pinned) && !found.contains(other))
        #expect(
            found.firstIndex(of: pinned) ?? 0 > found.firstIndex(of: exe.appendingPathComponent("libLiteRt.so").path)
                ?? Int.max)
    }

    @Test("a missing library names every place it looked")
    func missingLibrary() throws {
        do {
            _ = try LiteRTLibrary.load(path: "/nonexistent/dir/libLiteRt.so")
            Issue.record("loaded a missing library")
        } catch let e as LiteRTError {
            #expect(e.code == .libraryNotFound)
            #expect(e.message.contains("/nonexistent/dir/libLiteRt.so (no such file)"))
            #expect(
                e.message.contains(
                    "swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert"))
            #expect(e.message.contains("pip install ai-edge-litert==2.3.0") && !e.message.contains("make setup"))
        }
        let list = LiteRTLibrary.candidates(
            explicit: nil, environment: ["LITERT_LIBRARY": "/a/libLiteRt.so", "LITERT_LIB_DIR": "/b"])
        #expect(list.first == "/a/libLiteRt.so")
        #expect(list[1] == "/b/libLiteRt.so")
        #expect(list.contains { $0.hasSuffix(".litert/lib/libLiteRt.so") })
        #expect(list.last == "libLiteRt.so")
    }

    /// Debian's zlib for this build's architecture: a real library that is not LiteRT.
    static var systemZlib: String {
        #if arch(arm64)
            return "/lib/aarch64-linux-gnu/libz.so.1"
        #else
            return "/lib/x86_64-linux-gnu/libz.so.1"
        #endif
    }

    @Test(
        "a library without LiteRT's symbols is refused by name",
        .enabled(if: FileManager.default.fileExists(atPath: Self.systemZlib)))
    func wrongLibrary() throws {
        do {
            _ = try LiteRTLibrary.load(path: Self.systemZlib)
            Issue.record("accepted libz as LiteRT")
        } catch let e as LiteRTError {
            #expect(e.code == .symbolMissing)
            #expect(e.function == "LiteRtCreateEnvironment")
        }
    }

    @Test("status codes have LiteRT's names")
    func statusNames() {
        #expect(LiteRTError.statusName(500) == "kLiteRtStatusErrorFileIO")
        #expect(LiteRTError.statusName(3) == "kLiteRtStatusErrorRuntimeFailure")
        let e = LiteRTError(code: .callFailed, function: "LiteRtRunCompiledModel", status: 3, message: "boom")
        #expect(e.description == "LiteRtRunCompiledModel failed with kLiteRtStatusErrorRuntimeFailure (3): boom")
    }
}

@Suite("Running models on LiteRT", .enabled(if: Runtime.shouldRun && TestAssets.shouldRun))
struct InferenceTests {
    /// The deterministic input of scripts/goldens/litert_goldens.py.
    static func fill(_ model: CompiledModel) throws {
        let input = model.inputs[0]
        try model.withInput(0) { buffer in
            let n = input.elementCount
            switch input.elementType {
            case .uint8:
                let p = buffer.bindMemory(to: UInt8.self)
                for i in 0..<n { p[i] = UInt8((i * 31 + 7) % 256) }
            case .float32:
                let p = buffer.bindMemory(to: Float.self)
                for i in 0..<n { p[i] = Float((i * 31 + 7) % 256) / Float(127.5) - Float(1) }
            default:
                Issue.record("unexpected input type \(input.elementType)")
            }
        }
    }

    @Test(
        "outputs are bit-identical to the Python interpreter's",
        arguments: [
            "ssd_mobilenet_v1_coco_quant_metadata.tflite", "mobilenet_v2_1.0_224_quant.tflite",
            "face_detection_short_range.tflite", "ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite",
        ])
    func bitIdentical(name: String) throws {
        let golden = try #require(try Goldens.dictionary("litert.json")[name] as? [String: Any])
        let outputs = try #require(golden["outputs"] as? [[String: Any]])
        let model = try CompiledModel(model: try Model(path: TestAssets.model(name)), threads: 1)
        // A model with a signature is run under its signature's names (FPNLite: "input", "output_0" …).
        let named = { (d: [String: Any]) in d["signature_name"] as? String ?? d["name"] as? String ?? "" }
        #expect(model.inputs.map(\.name) == (golden["inputs"] as? [[String: Any]])?.map(named))
        try Self.fill(model)
        try model.run()
        #expect(model.outputs.count == outputs.count)
        for (i, o) in outputs.enumerated() {
            #expect(model.outputs[i].name == named(o))
            #expect(model.outputs[i].shape == o["runtime_shape"] as? [Int])
            let bytes = try model.outputBytes(i)
            #expect(try SHA256.hex(bytes) == o["sha256"] as? String, "\(name) output \(i)")
        }
    }

    @Test("describes inputs and outputs from the compiled layouts, with quantization")
    func descriptions() throws {
        let ssd = try CompiledModel(
            model: try Model(path: TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")))
        #expect(
            ssd.inputs == [
                TensorDescription(
                    name: "normalized_input_image_tensor", elementType: .uint8, shape: [1, 300, 300, 3],
                    quantization: Quantization(scale: 0.0078125, zeroPoint: 128), byteCount: 270_000)
            ])
        #expect(ssd.outputs.map(\.shape) == [[1, 10, 4], [1, 10], [1, 10], [1]])
        #expect(ssd.outputs.map(\.elementType) == [.float32, .float32, .float32, .float32])
        let fpn = try CompiledModel(
            model: try Model(path: TestAssets.model("ssd_mobilenet_v2_fpnlite_320_coco_hybrid_metadata.tflite")))
        #expect(
            fpn.inputs[0].elementType == .float32 && fpn.inputs[0].shape == [1, 320, 320, 3]
                && fpn.inputs[0].quantization == nil)
    }

    @Test("a model from bytes runs like the same model from its file")
    func fromBytes() throws {
        let path = TestAssets.model("mobilenet_v1_0.25_128_quant.tflite")
        let a = try CompiledModel(model: try Model(path: path))
        var bytes = try TestAssets.bytes(path)
        let b = try CompiledModel(model: try Model(bytes: bytes))
        bytes = []  // our copy is gone; the model keeps its own
        try Self.fill(a); try a.run()
        try Self.fill(b); try b.run()
        #expect(try a.outputBytes(0) == b.outputBytes(0))
        #expect(bytes.isEmpty)
    }

    @Test("two threads give the same outputs as one")
    func threads() throws {
        let path = TestAssets.model("mobilenet_v2_1.0_224_quant.tflite")
        let one = try CompiledModel(model: try Model(path: path), threads: 1)
        let two = try CompiledModel(model: try Model(path: path), threads: 2)
        try Self.fill(one); try one.run()
        try Self.fill(two); try two.run()
        #expect(two.threads == 2)
        #expect(try one.outputBytes(0) == two.outputBytes(0))
    }

    @Test("a model written by our builder runs: output = input + 0.5")
    func builtModelRuns() throws {
        let model = try CompiledModel(
            model: try Model(bytes: try SyntheticModels.addConstant(height: 2, width: 3, constant: 0.5)))
        #expect(model.inputs[0].shape == [1, 2, 3, 3])
        let input = (0..<18).map { Float($0) * 0.25 }
        try model.withInput(0) { buffer in
            for (i, v) in input.enumerated() { buffer.storeBytes(of: v, toByteOffset: i * 4, as: Float.self) }
        }
        try model.run()
        #expect(try model.outputFloats(0) == input.map { $0 + 0.5 })
    }

    @Test("LiteRT's profiler times every op of each run; profiling changes no output")
    func profile() throws {
        let path = TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite")
        let plain = try CompiledModel(model: try Model(path: path))
        let profiled = try CompiledModel(model: try Model(path: path), profiling: true)
        try Self.fill(plain); try plain.run()
        try Self.fill(profiled)
        let ops = try profiled.profile(runs: 3)
        for i in 0..<plain.outputs.count { #expect(try plain.outputBytes(i) == profiled.outputBytes(i)) }
        let runs = ops.filter { $0.place == .run }
        #expect(runs.map(\.run) == [0, 1, 2])
        for run in 0..<3 {
            let these = ops.filter { $0.run == run && $0.place != .run }
            // SSD v1: 13 depthwise, 1 first 3x3 and 4 extra-layer 3x3 convolutions in XNNPACK; the
            // concatenations and the post-processing op on the interpreter.
            #expect(these.filter { $0.name == "Convolution (NHWC, QU8) DWConv" && $0.place == .delegate }.count == 13)
            #expect(these.filter { $0.name == "Convolution (NHWC, QU8) IGEMM" }.count == 5)
            #expect(these.filter { $0.name == "TFLite_Detection_PostProcess" && $0.place == .interpreter }.count == 1)
            #expect(these.filter { $0.name == "CONCATENATION" }.count == 2)
            let inOps = these.map(\.microseconds).reduce(0, +)
            let whole = runs[run].microseconds
            #expect(inOps > 0 && inOps <= whole, "run \(run): ops \(inOps) µs, run \(whole) µs")
        }
        #expect(throws: LiteRTError.self) { try plain.profile(runs: 1) }
    }

    @Test("bad models and bad calls are typed errors")
    func errors() throws {
        #expect(throws: LiteRTError.self) { try Model(path: "/nonexistent/model.tflite") }
        do {
            _ = try Model(bytes: Array("not a flatbuffer, just text".utf8))
            Issue.record("text loaded as a model")
        } catch let e as LiteRTError {
            #expect(e.function == "LiteRtCreateModelFromBuffer")
            #expect(e.status != nil)
        }
        #expect(throws: LiteRTError.self) { try Model(bytes: [UInt8]()) }
        let model = try Model(path: TestAssets.model("mobilenet_v1_0.25_128_quant.tflite"))
        #expect(throws: LiteRTError.self) { try CompiledModel(model: model, threads: 0) }
        let compiled = try CompiledModel(model: model)
        #expect(throws: LiteRTError.self) { try compiled.setInput(0, bytes: [1, 2, 3]) }
        #expect(throws: LiteRTError.self) { try compiled.withInput(1) { _ in } }
        #expect(throws: LiteRTError.self) { try compiled.outputBytes(5) }
        #expect(throws: LiteRTError.self) { try compiled.outputFloats(0) }  // uint8 output
    }

    @Test(
        "600 load, compile, run, destroy cycles do not grow memory (in a process of their own)",
        .disabled(if: TestAssets.underSanitizer))
    func noLeak() throws {
        // Other tests run in parallel in this process, so the check runs in `vision-tasks soak`.
        let binary = TestAssets.cli
        try #require(
            FileManager.default.isExecutableFile(atPath: binary), "build vision-tasks first (swift build --build-tests)"
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "soak", "--model", TestAssets.model("ssd_mobilenet_v1_coco_quant_metadata.tflite"), "--cycles", "600",
            "--json",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let growth = (report["rss_after"] as? Int ?? 0) - (report["rss_before"] as? Int ?? 0)
        #expect(report["cycles"] as? Int == 600)
        // Anything leaked per cycle (a 4 MB model copy, LiteRT's ~100 KB of buffers) raises resident memory
        // steadily: 100 KB or more per cycle. malloc's and the kernel's own steps (±6 MB seen, 10 MB once)
        // come and go: even a 10 MB step halfway is a slope of 25 KB per cycle. So the least-squares slope
        // of the memory after each tenth of the cycles decides (under 40 KB per cycle), and the whole run
        // stays under 48 MB.
        let windows = report["rss_windows"] as? [Int] ?? []
        #expect(windows.count == 10, "\(report)")
        var total = 0
        let samples =
            [0]
            + windows.map { w in
                total += w
                return total
            }
        let xs: [Double] = (0..<samples.count).map { Double($0) * 60 }
        let ys: [Double] = samples.map { Double($0) }
        let mx = xs.reduce(0, +) / Double(xs.count)
        let my = ys.reduce(0, +) / Double(ys.count)
        var covariance = 0.0
        var variance = 0.0
        for (x, y) in zip(xs, ys) {
            covariance += (x - mx) * (y - my)
            variance += (x - mx) * (x - mx)
        }
        let slope = covariance / variance
        #expect(slope < 40_000, "resident memory rises \(Int(slope)) bytes per cycle: \(windows)")
        #expect(growth < 48 * 1024 * 1024, "resident memory grew by \(growth / 1024) KiB over 600 cycles")
    }
}
