import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives one download for ``ModelDownloader``: appends the body to the `.part` file as it
/// arrives (or truncates it when the server ignores the Range request), and records the status or
/// the failure.
// @unchecked Sendable: the `var`s are written only by the URL session's callbacks, which run one at a
// time on its serial delegate queue, and read by the downloader only after `done` is signalled.
final class DownloadSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let part: URL
    let resumeFrom: Int
    let maxBytes: Int
    let done = DispatchSemaphore(value: 0)
    private(set) var status: Int?
    private(set) var failure: MLKitError?
    private var handle: FileHandle?
    private var written = 0

    init(part: URL, resumeFrom: Int, maxBytes: Int) {
        self.part = part
        self.resumeFrom = resumeFrom
        self.maxBytes = maxBytes
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let code = (response as? HTTPURLResponse)?.statusCode ?? 0
        status = code
        guard code == 200 || code == 206 else { completionHandler(.cancel); return }
        // 200: the whole file (the server ignored Range): start the part over. 206: append.
        if code == 200 || !FileManager.default.fileExists(atPath: part.path) {
            _ = FileManager.default.createFile(atPath: part.path, contents: nil)  // FileHandle below reports failure
        }
        handle = try? FileHandle(forWritingTo: part)
        written = code == 206 ? resumeFrom : 0
        if code == 206 { handle?.seekToEndOfFile() }
        completionHandler(handle == nil ? .cancel : .allow)
        if handle == nil { failure = MLKitError(.permissionDenied, "Cannot write \(part.path).") }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        written += data.count
        guard written <= maxBytes else {
            failure = MLKitError(.resourceExhausted, "The model is larger than \(maxBytes) bytes.")
            dataTask.cancel()
            return
        }
        handle?.write(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        try? handle?.close()
        if let error = error as NSError?, failure == nil, status.map({ $0 == 200 || $0 == 206 }) ?? true {
            let timedOut = error.code == NSURLErrorTimedOut
            failure = MLKitError(
                timedOut ? .deadlineExceeded : .networkIssue,
                "Downloading \(task.originalRequest?.url?.absoluteString ?? "the model") "
                    + "failed\(timedOut ? " (timed out)" : ""): \(error.localizedDescription). Run again to resume."
            )
        }
        done.signal()
    }
}
