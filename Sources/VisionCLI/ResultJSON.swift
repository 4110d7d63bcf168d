import Foundation
import MediaPipeTasksVision

/// JSON output of results (MediaPipe-shaped field names).
enum ResultJSON {
    static func escape(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    static func category(_ c: ResultCategory) -> String {
        var fields = ["\"index\":\(c.index)", "\"score\":\(c.score)"]
        if let n = c.categoryName { fields.append("\"categoryName\":\(escape(n))") }
        if let d = c.displayName { fields.append("\"displayName\":\(escape(d))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func detection(_ r: ObjectDetectorResult, image: String, width: Int, height: Int) -> String {
        let dets = r.detections.map { d -> String in
            let b = d.boundingBox
            return "{\"boundingBox\":{\"x\":\(Int(b.origin.x)),\"y\":\(Int(b.origin.y)),\"width\":\(Int(b.size.width)),\"height\":\(Int(b.size.height))},"
                + "\"categories\":[" + d.categories.map(category).joined(separator: ",") + "]}"
        }
        return "{\"image\":\(escape(image)),\"width\":\(width),\"height\":\(height),\"timestampInMilliseconds\":\(r.timestampInMilliseconds),\"detections\":[" + dets.joined(separator: ",") + "]}"
    }
}
