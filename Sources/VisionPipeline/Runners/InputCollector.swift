import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns the command line's inputs into the items to process: files as given, folders searched
/// recursively (sorted by path), glob patterns (`photos/*.jpg`), and `-` for a list of paths read
/// from standard input (one per line). Pictures are `.jpg`, `.jpeg` and `.png`; videos are the
/// containers the video reader opens (`.mp4`, `.mkv`, `.mov`, `.webm`, `.avi` …).
package enum InputCollector {
    package static let pictureExtensions: Set<String> = ["jpg", "jpeg", "png"]
    package static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "ts", "mts", "mpg", "mpeg", "flv", "ivf", "y4m", "3gp",
    ]

    /// The items `arguments` name, in order. `readStandardInput` supplies the lines for `-`.
    package static func collect(
        _ arguments: [String], videos: Bool = true,
        readStandardInput: () -> String = {
            String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
    ) throws -> [InputItem] {
        var out: [InputItem] = []
        for argument in arguments {
            if argument == "-" {
                for line in readStandardInput().split(whereSeparator: \.isNewline) {
                    let path = line.trimmingCharacters(in: .whitespaces)
                    if !path.isEmpty, !path.hasPrefix("#") {
                        out += try collect(path: path, videos: videos, fromList: true)
                    }
                }
                continue
            }
            out += try collect(path: argument, videos: videos, fromList: false)
        }
        return out
    }

    private static func collect(path: String, videos: Bool, fromList: Bool) throws -> [InputItem] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue
                ? try folder(path, videos: videos) : [file(path, relative: (path as NSString).lastPathComponent)]
        }
        if !fromList, path.contains(where: { "*?[".contains($0) }) {
            let matches = glob(path)
            guard !matches.isEmpty else { throw PipelineError.usage("no file matches \(path)") }
            return try matches.flatMap { try collect(path: $0, videos: videos, fromList: true) }
        }
        return [file(path, relative: (path as NSString).lastPathComponent)]  // reported as not found when processed
    }

    private static func file(_ path: String, relative: String) -> InputItem {
        let ext = (path as NSString).pathExtension.lowercased()
        return InputItem(path: path, relativePath: relative, kind: videoExtensions.contains(ext) ? .video : .picture)
    }

    /// The pictures and videos under `root`, sorted by path, hidden files skipped.
    private static func folder(_ root: String, videos: Bool) throws -> [InputItem] {
        // A folder given as a symbolic link is walked where it points (the walker does not follow its root);
        // the paths keep the name the caller gave. Links inside it are not followed (no loops).
        guard let walker = FileManager.default.enumerator(atPath: (root as NSString).resolvingSymlinksInPath) else {
            throw PipelineError.usage("cannot read the folder \(root)")
        }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { walker.skipDescendants(); continue }
            let ext = (name as NSString).pathExtension.lowercased()
            if pictureExtensions.contains(ext) || (videos && videoExtensions.contains(ext)) { found.append(relative) }
        }
        guard !found.isEmpty else {
            throw PipelineError.usage(
                "\(root) holds no pictures (.jpg, .jpeg, .png)\(videos ? " or videos (.mp4, .mkv, .mov, .webm …)" : "")"
            )
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { relative in
            file((root as NSString).appendingPathComponent(relative), relative: relative)
        }
    }

    /// The paths matching a shell pattern, sorted.
    package static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        var out: [String] = []
        for i in 0..<Int(g.gl_pathc) {
            if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
        }
        return out.sorted()
    }
}
