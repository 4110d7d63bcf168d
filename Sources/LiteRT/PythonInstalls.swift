import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ai-edge-litert` packages installed with pip, found without running Python: the `ai_edge_litert`
/// folders (with their `.dist-info` version) in the site-packages of the active virtual environment
/// or conda environment, the user's (`~/.local`), the system's (`/usr/local`, `/usr`) and pyenv's Pythons.
enum PythonInstalls {
    /// One install: its `libLiteRt.so` and the version its `.dist-info` folder names ("?" when none).
    struct Install: Equatable {
        let library: String
        let version: String
    }

    static func find(environment: [String: String]) -> [Install] {
        let home = environment["HOME"] ?? NSHomeDirectory()
        var prefixes: [String] = []
        if let venv = environment["VIRTUAL_ENV"], !venv.isEmpty { prefixes.append(venv) }
        if let conda = environment["CONDA_PREFIX"], !conda.isEmpty { prefixes.append(conda) }
        prefixes += [home + "/.local", "/usr/local", "/usr"]
        let pyenv = environment["PYENV_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.pyenv"
        var patterns = prefixes.flatMap { ["\($0)/lib/python3*/site-packages", "\($0)/lib/python3*/dist-packages"] }
        patterns.append("\(pyenv)/versions/*/lib/python3*/site-packages")
        patterns.append("/usr/lib/python3/dist-packages")
        var found: [Install] = []
        for pattern in patterns {
            for site in glob(pattern) {
                let library = site + "/ai_edge_litert/libLiteRt.so"
                guard FileManager.default.fileExists(atPath: library) else { continue }
                let version =
                    glob(site + "/ai_edge_litert-*.dist-info").first
                    .map {
                        String(
                            ($0 as NSString).lastPathComponent.dropFirst("ai_edge_litert-".count).dropLast(
                                ".dist-info".count))
                    } ?? "?"
                found.append(Install(library: library, version: version))
            }
        }
        return found
    }

    /// The paths matching a shell pattern, sorted (none when nothing matches).
    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { i in result.gl_pathv[i].map { String(cString: $0) } }.sorted()
    }
}
