import Foundation
import VisionAnalytics

/// How `track` shows lines and zones: each frame's events and running counts in its record, the
/// shapes and live counts to draw, and the summary of a video at its end (JSON and text).
package enum ZoneReport {
    package static func event(_ e: ZoneEvent) -> JSONValue {
        let isLine = e.kind == .crossedIn || e.kind == .crossedOut
        var fields: [(String, JSONValue)] = [
            ("kind", .string(e.kind.rawValue)), (isLine ? "line" : "zone", .string(e.name)),
            ("trackingID", .int(e.trackingID)),
            ("class", .string(e.className)), ("timestampMs", .int(e.timestampMs)),
        ]
        if let d = e.dwellMs { fields.append(("dwellMs", .int(d))) }
        return .object(fields)
    }

    private static func perClass(_ counts: [String: Int]) -> JSONValue {
        .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    }

    /// The running counts after a frame (compact: totals and occupancy).
    package static func counts(_ c: ZoneCounter) -> JSONValue {
        .object([
            (
                "lines",
                .array(
                    c.lines.map {
                        .object([("name", .string($0.name)), ("in", .int($0.inCount)), ("out", .int($0.outCount))])
                    })
            ),
            (
                "zones",
                .array(c.zones.map { .object([("name", .string($0.name)), ("occupancy", .int($0.occupancy))]) })
            ),
        ])
    }

    /// A video's summary: per line the crossings and net counts per class; per zone the visitors,
    /// occupancy and every visit with its dwell time.
    package static func summary(_ c: ZoneCounter) -> JSONValue {
        .object([
            (
                "lines",
                .array(
                    c.lines.map { l in
                        .object([
                            ("name", .string(l.name)), ("in", .int(l.inCount)), ("out", .int(l.outCount)),
                            ("inPerClass", perClass(l.inCountPerClass)), ("outPerClass", perClass(l.outCountPerClass)),
                            ("netIn", .int(l.netInCountPerClass.values.reduce(0, +))),
                            ("netOut", .int(l.netOutCountPerClass.values.reduce(0, +))),
                            ("netInPerClass", perClass(l.netInCountPerClass)),
                            ("netOutPerClass", perClass(l.netOutCountPerClass)),
                        ])
                    })
            ),
            (
                "zones",
                .array(
                    c.zones.map { z in
                        let visits = z.visits
                        return .object([
                            ("name", .string(z.name)), ("visitors", .int(z.visitors)),
                            ("visitorsPerClass", perClass(z.visitorsPerClass)), ("occupancy", .int(z.occupancy)),
                            ("maxOccupancy", .int(z.maxOccupancy)),
                            (
                                "visits",
                                .array(
                                    visits.map { v in
                                        .object([
                                            ("trackingID", .int(v.trackingID)), ("class", .string(v.className)),
                                            ("enteredMs", .int(v.enteredMs)),
                                            ("exitedMs", v.exitedMs.map { .int($0) } ?? .null),
                                            ("dwellMs", .int(v.dwellMs)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    private static func classes(_ counts: [String: Int]) -> String {
        counts.isEmpty
            ? ""
            : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// The summary as text lines.
    package static func lines(_ c: ZoneCounter) -> [String] {
        c.lines.map { l in
            "line \(l.name): in \(l.inCount)\(classes(l.inCountPerClass)), out "
                + "\(l.outCount)\(classes(l.outCountPerClass)); "
                + "objects that ended in \(l.netInCountPerClass.values.reduce(0, +)), out "
                + "\(l.netOutCountPerClass.values.reduce(0, +))"
        }
            + c.zones.map { z in
                let dwell = z.visits.map { Double($0.dwellMs) / 1000 }
                let mean = dwell.isEmpty ? 0 : dwell.reduce(0, +) / Double(dwell.count)
                return "zone \(z.name): \(z.visitors) visitors\(classes(z.visitorsPerClass)), "
                    + String(format: "dwell mean %.1f s, max %.1f s; ", mean, dwell.max() ?? 0)
                    + "\(z.occupancy) inside at the end, at most \(z.maxOccupancy)"
            }
    }

    /// The shapes to draw on a frame, with their live counts: zones first, lines over them, then
    /// the point that places each object (its first anchor).
    package static func overlay(_ c: ZoneCounter, objects: [ZoneObject]) -> [TaskRecord.Overlay] {
        let anchor = c.lines.first?.anchors.first ?? c.zones.first?.anchors.first ?? .bottomCenter
        return c.zones.enumerated().map { k, z in
            .polygon(z.polygon, label: "\(z.name) \(z.occupancy)", color: c.lines.count + k)
        }
            + c.lines.enumerated().map { k, l in
                .line(from: l.start, to: l.end, label: "\(l.name) in \(l.inCount) out \(l.outCount)", color: k)
            }
            + objects.map { .anchor(anchor.point(in: $0.box)) }
    }
}
