import FileInput
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a hosted model to a cache folder, the Linux counterpart of the seeds' "download the
/// remote model to a local file, then make a `LocalModel`" step: https only (plain http is allowed
/// to this machine's loopback addresses, for tests), a pinned sha256, written to `NAME.part` as it
/// arrives (an interrupted download resumes with a Range request), checked, then renamed into place
/// atomically. A cached file whose digest matches is used without touching the network.
///
/// Errors are ``MLKitError``s: `.invalidArgument` (URL or digest), `.notFound` (HTTP 404),
/// `.networkIssue` (other HTTP statuses, connection failures), `.deadlineExceeded` (timeout),
/// `.modelHashMismatch` (the digest differs), `.resourceExhausted` (larger than `maxBytes`).
public final class ModelDownloader: Sendable {
    /// Where models are kept.
    public let cacheDirectory: URL
    /// Seconds without progress before a download fails (default 60).
    public let timeout: TimeInterval
    /// Largest model accepted (default 2 GiB).
    public let maxBytes: Int

    /// A downloader keeping models in `cacheDirectory` (created when missing).
    public init(cacheDirectory: URL, timeout: TimeInterval = 60, maxBytes: Int = Int(Int32.max)) {
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// The local file of the model at `url` whose sha256 is `sha256` (hex), downloading it first if
    /// it is not cached yet. Blocks until done; call it off the main thread in an app.
    public func localModel(from url: URL, sha256: String, fileName: String? = nil) throws -> LocalModel {
        LocalModel(path: try download(from: url, sha256: sha256, fileName: fileName).path)
    }

    /// Downloads (or finds in the cache) the file at `url` with digest `sha256`; returns its path.
    public func download(from url: URL, sha256: String, fileName: String? = nil) throws -> URL {
        let digest = sha256.lowercased()
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit }) else {
            throw MLKitError(.invalidArgument, "The pinned sha256 must be 64 hex digits, got '\(sha256)'.")
        }
        try Self.checkScheme(url)
        let name = fileName ?? (url.lastPathComponent.isEmpty ? digest + ".tflite" : url.lastPathComponent)
        guard !name.contains("/"), name != ".", name != ".." else {
            throw MLKitError(.invalidArgument, "Invalid file name '\(name)'.")
        }
        do {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        } catch {
            throw MLKitError(
                .permissionDenied,
                "Cannot create the model cache \(cacheDirectory.path): \(error.localizedDescription)", underlying: error
            )
        }
        let target = cacheDirectory.appendingPathComponent(name)
        // Both digests are taken over the files' mappings: the model is never copied into memory.
        if let cached = try? FileBytes(mapping: target.path, maxBytes: maxBytes), (try? SHA256.hex(cached)) == digest {
            return target
        }
        let part = cacheDirectory.appendingPathComponent(name + ".part")
        try fetch(url, into: part)
        let actual: String
        do { actual = try SHA256.hex(FileBytes(mapping: part.path, maxBytes: maxBytes)) } catch {
            throw MLKitError(.unknown, "Cannot read the downloaded \(part.path): \(error)", underlying: error)
        }
        guard actual == digest else {
            try? FileManager.default.removeItem(at: part)
            throw MLKitError(
                .modelHashMismatch,
                "The model downloaded from \(url.absoluteString) has sha256 \(actual), expected \(digest); it was "
                    + "discarded."
            )
        }
        guard rename(part.path, target.path) == 0 else {
            throw MLKitError(.unknown, "Cannot move \(part.path) to \(target.path), errno=\(errno).")
        }
        return target
    }

    /// https anywhere; http only to loopback addresses.
    static func checkScheme(_ url: URL) throws {
        let scheme = url.scheme?.lowercased()
        let host = url.host?.lowercased() ?? ""
        let loopback = host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw MLKitError(
                .invalidArgument,
                "Models are downloaded over https (plain http only from this machine), got \(url.absoluteString).")
        }
    }

    /// Fetches `url` into `part`, resuming from what `part` already holds when the server allows.
    private func fetch(_ url: URL, into part: URL) throws {
        let already = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int) ?? 0
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if already > 0 { request.setValue("bytes=\(already)-", forHTTPHeaderField: "Range") }
        let sink = DownloadSink(part: part, resumeFrom: already, maxBytes: maxBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: sink, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: request).resume()
        sink.done.wait()
        if let error = sink.failure { throw error }
        guard let status = sink.status else {
            throw MLKitError(.networkIssue, "No response from \(url.absoluteString).")
        }
        switch status {
        case 200, 206: return
        case 404: throw MLKitError(.notFound, "No model at \(url.absoluteString) (HTTP 404).")
        case 416:  // the part is complete or stale: start over
            try? FileManager.default.removeItem(at: part)
            try fetch(url, into: part)
        default: throw MLKitError(.networkIssue, "Downloading \(url.absoluteString) failed with HTTP \(status).")
        }
    }
}
