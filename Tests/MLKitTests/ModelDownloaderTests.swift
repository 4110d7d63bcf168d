import Foundation
import MLKit
import Testing
import VisionTestSupport

/// ModelDownloader against a real HTTP server on 127.0.0.1 (Tests/Fixtures/model_server.py):
/// download and cache, pinned digests, 404, timeouts, an interrupted download resumed.
@Suite("Downloading hosted models", .serialized)
final class ModelDownloaderTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vt-models-\(UUID().uuidString)")
    let served: URL
    let server = Process()
    let port: Int
    let model: [UInt8]

    init() throws {
        served = folder.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        // 300 kB of varied bytes stand for a model.
        var bytes = [UInt8](repeating: 0, count: 300_000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 13) }
        model = bytes
        #expect(
            FileManager.default.createFile(
                atPath: served.appendingPathComponent("model.tflite").path, contents: Data(bytes)))
        let pipe = Pipe()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", TestAssets.packageRoot.appendingPathComponent("Tests/Fixtures/model_server.py").path,
            served.path,
        ]
        server.standardOutput = pipe
        try server.run()
        var line = Data()
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
            line += byte
        }
        port = Int(String(decoding: line, as: UTF8.self)) ?? 0
    }

    deinit {
        server.terminate()
        try? FileManager.default.removeItem(at: folder)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    @Test("downloads, checks the digest, caches; a cached file is used without the network")
    func download() throws {
        #expect(port > 0)
        let cache = folder.appendingPathComponent("cache")
        let downloader = ModelDownloader(cacheDirectory: cache, timeout: 10)
        let digest = try SHA256.hex(model)
        let local = try downloader.localModel(from: url("files/model.tflite"), sha256: digest)
        #expect(local.path == cache.appendingPathComponent("model.tflite").path)
        #expect(try TestAssets.bytes(local.path) == model)
        #expect(!FileManager.default.fileExists(atPath: local.path + ".part"))
        // Cached: even a URL that would fail is not fetched.
        #expect(
            try downloader.download(from: url("missing/model.tflite"), sha256: digest, fileName: "model.tflite").path
                == local.path)
    }

    @Test("404, a wrong digest, a timeout, a plain-http remote host and a bad digest string are MLKitErrors")
    func errors() throws {
        let downloader = ModelDownloader(cacheDirectory: folder.appendingPathComponent("errors"), timeout: 1)
        func code(_ body: () throws -> Void) -> MLKitErrorCode? {
            do { try body(); return nil } catch let e as MLKitError { return e.mlkitCode } catch { return nil }
        }
        let digest = try SHA256.hex(model)
        #expect(code { _ = try downloader.download(from: url("files/absent.tflite"), sha256: digest) } == .notFound)
        #expect(
            code {
                _ = try downloader.download(from: url("files/model.tflite"), sha256: String(repeating: "0", count: 64))
            } == .modelHashMismatch)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("errors/model.tflite.part").path))
        #expect(
            code { _ = try downloader.download(from: url("slow/model.tflite"), sha256: digest) } == .deadlineExceeded)
        #expect(
            code { _ = try downloader.download(from: URL(string: "http://example.com/m.tflite")!, sha256: digest) }
                == .invalidArgument)
        #expect(
            code { _ = try downloader.download(from: url("files/model.tflite"), sha256: "abc") } == .invalidArgument)
    }

    @Test("an interrupted download resumes where it stopped, with a Range request")
    func resume() throws {
        let cache = folder.appendingPathComponent("resume")
        let downloader = ModelDownloader(cacheDirectory: cache, timeout: 5)
        let digest = try SHA256.hex(model)
        do {
            _ = try downloader.download(from: url("drop/model.tflite"), sha256: digest, fileName: "model.tflite")
            Issue.record("the cut download succeeded")
        } catch let e as MLKitError {
            #expect(e.mlkitCode == .networkIssue || e.mlkitCode == .modelHashMismatch, "\(e)")
        }
        let part = cache.appendingPathComponent("model.tflite.part").path
        let partial = (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0
        #expect(partial == model.count / 2)
        let local = try downloader.download(from: url("files/model.tflite"), sha256: digest, fileName: "model.tflite")
        #expect(try TestAssets.bytes(local.path) == model)
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: url("log"))) as? [Any]
        #expect((log?.last as? String) == "bytes=\(model.count / 2)-")
    }
}

/// The digest the downloader pins models with: libcrypto's SHA-256, streamed over the bytes in place.
@Suite("SHA-256 of bytes and mapped files")
struct SHA256Tests {
    @Test("FIPS 180-4 vectors, a stream across several chunks, and a mapped file equal to its bytes")
    func vectors() throws {
        #expect(try SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 3 MiB + 5: three whole chunks and a partial one (Python's hashlib gives the same digest).
        let long = (0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = "41fbed9f0d5d1683eb3c1727486c0baf37666b085228ba7ea57e041d65994e28"
        #expect(try SHA256.hex(long) == expected)
        #expect(try SHA256.hex(long.lazy.map { $0 }) == expected)  // not contiguous: copied once
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vt-sha-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(long)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try FileBytes(mapping: path, maxBytes: 1 << 30)
        #expect(mapped.isMapped)
        #expect(try SHA256.hex(mapped) == expected)
    }
}
