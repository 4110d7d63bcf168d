import Foundation

/// Golden files committed in `Tests/Goldens` (made by `scripts/goldens/generate.sh`).
package enum Goldens {
    /// The parsed JSON of `Tests/Goldens/<name>`.
    package static func json(_ name: String) throws -> Any {
        let url = TestAssets.packageRoot.appendingPathComponent("Tests/Goldens").appendingPathComponent(name)
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
