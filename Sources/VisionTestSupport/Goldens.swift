import Foundation

/// Golden files committed in `Tests/Goldens` (made by `scripts/goldens/generate.sh`).
package enum Goldens {
    /// Where this build's architecture has goldens of its own: LiteRT's aarch64 kernels round
    /// differently from its x86_64 ones, so on arm64 MediaPipe's own results (its aarch64 build, run by
    /// `scripts/arm64/goldens.sh`) are the reference where they differ from x86_64's.
    package static var architectureDirectory: String? {
        #if arch(arm64)
            return "aarch64"
        #else
            return nil
        #endif
    }

    /// The parsed JSON of `Tests/Goldens/<name>` — on arm64, of `Tests/Goldens/aarch64/<name>` where
    /// that file exists.
    package static func json(_ name: String) throws -> Any {
        let directory = TestAssets.packageRoot.appendingPathComponent("Tests/Goldens")
        var url = directory.appendingPathComponent(name)
        if let own = architectureDirectory.map({ directory.appendingPathComponent($0).appendingPathComponent(name) }),
            FileManager.default.fileExists(atPath: own.path)
        {
            url = own
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestSupportError("missing golden \(url.path)")
        }
        return try JSONSerialization.jsonObject(with: data)
    }

    /// The golden as a dictionary.
    package static func dictionary(_ name: String) throws -> [String: Any] {
        guard let d = try json(name) as? [String: Any] else {
            throw TestSupportError("golden \(name) is not an object")
        }
        return d
    }
}
