import Foundation

/// One `POST /detect` of DOODS2's API (what Home Assistant's `doods` integration sends through
/// `pydoods`), read from its JSON body: `data` (the picture, base64), `detector_name` (empty or absent:
/// `default`), `id` (echoed), `detect` (label → minimum confidence 0–100, `*` for any label) and
/// `regions` (areas of the picture, 0–1, each with its own `detect` and `covers`). Anything else DOODS2
/// takes (`image`, `preprocess`, `throttle`…) is refused by name rather than ignored.
package struct DoodsRequest: Equatable, Sendable {
    /// A refused request: why, in words that name the field.
    package struct Refusal: Error, Equatable, Sendable {
        package let message: String
        init(_ message: String) { self.message = message }
    }

    /// An area of the picture (fractions of its height and width) with its own label filter.
    package struct Region: Equatable, Sendable {
        package var id: String?
        package var top: Double, left: Double, bottom: Double, right: Double
        package var detect: [String: Double]
        /// True: a detection must lie wholly inside; false: any overlap, edges included.
        package var covers: Bool
    }

    package var id: String?
    package var detectorName: String
    package var picture: [UInt8]
    package var detect: [String: Double]
    package var regions: [Region]

    /// DOODS2's name for the detector a request names none.
    package static let defaultDetector = "default"
    /// At most this many regions, and this many labels in one `detect`.
    package static let maxRegions = 64
    package static let maxLabels = 1000
    /// The fields read; others are refused.
    static let fields: Set<String> = ["id", "detector_name", "data", "detect", "regions"]

    /// The request `body` holds.
    package static func parse(_ body: [UInt8]) throws -> DoodsRequest {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)), let json = object as? [String: Any]
        else {
            throw Refusal("The body is not a JSON object (DOODS' /detect takes {\"data\": base64, \"detect\": {…}}).")
        }
        if let unknown = json.keys.sorted().first(where: { !fields.contains($0) }) {
            throw Refusal(
                "'\(unknown)' is not a field this server takes; it reads \(fields.sorted().joined(separator: ", ")).")
        }
        let id = try optionalString(json["id"], "id")
        let name = try optionalString(json["detector_name"], "detector_name") ?? ""
        guard let data = json["data"] as? String else {
            throw Refusal("'data' must be the picture as a base64 string.")
        }
        let compact = data.filter { !$0.isWhitespace }
        guard !compact.isEmpty else { throw Refusal("'data' is empty: send the picture as base64.") }
        guard let bytes = Data(base64Encoded: compact) else {
            throw Refusal(
                "'data' is not base64 (\(compact.count) characters); send the picture's bytes base64-encoded.")
        }
        let detect = try filter(json["detect"], "detect")
        let list: [Any]
        switch json["regions"] {
        case nil, is NSNull: list = []
        case let given as [Any]: list = given
        default: throw Refusal("'regions' must be a list of {top, left, bottom, right, detect, covers}.")
        }
        guard list.count <= maxRegions else {
            throw Refusal("'regions' holds \(list.count) regions; at most \(maxRegions) are taken.")
        }
        var regions: [Region] = []
        for (i, item) in list.enumerated() {
            regions.append(try region(item, "regions[\(i)]"))
        }
        return DoodsRequest(
            id: id, detectorName: name.isEmpty ? defaultDetector : name, picture: [UInt8](bytes), detect: detect,
            regions: regions)
    }

    private static func optionalString(_ value: Any?, _ field: String) throws -> String? {
        guard let value, !(value is NSNull) else { return nil }
        guard let s = value as? String else { throw Refusal("'\(field)' must be a string.") }
        return s
    }

    /// A `detect` object: label → minimum confidence, 0–100.
    private static func filter(_ value: Any?, _ field: String) throws -> [String: Double] {
        guard let value, !(value is NSNull) else { return [:] }
        guard let object = value as? [String: Any] else {
            throw Refusal("'\(field)' must be an object of label → minimum confidence (0–100), e.g. {\"person\": 50}.")
        }
        guard object.count <= maxLabels else {
            throw Refusal("'\(field)' names \(object.count) labels; at most \(maxLabels) are taken.")
        }
        var out: [String: Double] = [:]
        for (label, v) in object {
            guard let n = number(v), n.isFinite, (0...100).contains(n) else {
                throw Refusal("'\(field)' gives '\(label)' \(v); a minimum confidence is a number from 0 to 100.")
            }
            out[label] = n
        }
        return out
    }

    private static func region(_ value: Any, _ field: String) throws -> Region {
        guard let object = value as? [String: Any] else {
            throw Refusal("'\(field)' must be an object {top, left, bottom, right, detect, covers}.")
        }
        func edge(_ name: String, _ fallback: Double) throws -> Double {
            guard let v = object[name] else { return fallback }
            guard let n = number(v), n.isFinite, (0...1).contains(n) else {
                throw Refusal("'\(field).\(name)' must be a number from 0 to 1 (a fraction of the picture).")
            }
            return n
        }
        let r = Region(
            id: try optionalString(object["id"], "\(field).id"),
            top: try edge("top", 0), left: try edge("left", 0), bottom: try edge("bottom", 1),
            right: try edge("right", 1), detect: try filter(object["detect"], "\(field).detect"),
            covers: try {
                guard let v = object["covers"], !(v is NSNull) else { return false }
                guard let n = v as? NSNumber, isBoolean(n) else {
                    throw Refusal("'\(field).covers' must be true or false.")
                }
                return n.boolValue
            }())
        guard r.top <= r.bottom, r.left <= r.right else {
            throw Refusal("'\(field)' has top > bottom or left > right.")
        }
        return r
    }

    /// A JSON number (not a Boolean, which Foundation also reads as a number).
    private static func number(_ value: Any) -> Double? {
        guard let n = value as? NSNumber, !isBoolean(n) else { return nil }
        return n.doubleValue
    }

    /// Whether Foundation read `n` from `true` or `false` (its type is a C `char`; numbers' never is).
    private static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }
}
