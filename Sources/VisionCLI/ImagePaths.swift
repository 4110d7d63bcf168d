import Foundation

/// Expands the command line's picture arguments: files as given, folders to the JPEG and PNG files
/// they hold (sorted by name).
enum ImagePaths {
    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    static func expand(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                out.append(path)  // reported by the decoder with MediaPipe's not-found error
                continue
            }
            guard isDirectory.boolValue else { out.append(path); continue }
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            guard !names.isEmpty else { throw CLIError.usage("\(path) holds no .jpg, .jpeg or .png files") }
            out += names.map { (path as NSString).appendingPathComponent($0) }
        }
        return out
    }
}
