import FileInput
import Foundation
import Locking
import VisionPipeline

/// What `serve` counts, shown at `/metrics` in Prometheus' text format: requests by route and status,
/// request latency and inference time (histograms), refusals by reason, the ZMQ detector's requests;
/// the queue depth and requests in flight are read when scraped.
package final class ServeMetrics: Sendable {
    /// Latency bucket bounds in seconds.
    package static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
        var sum = 0.0
        var total = 0

        mutating func add(_ seconds: Double) {
            for (i, bound) in ServeMetrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            total += 1
        }
    }

    private struct State {
        var requests: [String: Int] = [:]  // "route\u{0}status"
        var latency: [String: Histogram] = [:]
        var inference: [String: Histogram] = [:]
        var refusals: [String: Int] = [:]
        var zmq: [String: Int] = [:]
    }

    private let state = Locked(State())

    /// A request to `route` answered with `status` after `seconds`.
    package func request(route: String, status: Int, seconds: Double) {
        state.withLock {
            $0.requests[route + "\u{0}" + String(status), default: 0] += 1
            $0.latency[route, default: Histogram()].add(seconds)
        }
    }

    /// A model's inference took `seconds`.
    package func inference(model: String, seconds: Double) {
        state.withLock { $0.inference[model, default: Histogram()].add(seconds) }
    }

    /// A request refused for `reason` (queue_full, deadline, too_large, unauthorized, draining…).
    package func refused(_ reason: String) { state.withLock { $0.refusals[reason, default: 0] += 1 } }

    /// A ZMQ request of `kind` (model_request, model_data, tensor, bad) with `result`.
    package func zmq(kind: String, result: String) {
        state.withLock { $0.zmq[kind + "\u{0}" + result, default: 0] += 1 }
    }

    /// How many requests `route` answered with `status` so far.
    package func count(route: String, status: Int) -> Int {
        state.withLock { $0.requests[route + "\u{0}" + String(status)] ?? 0 }
    }

    /// The text `/metrics` shows.
    package func text(queueDepth: Int, inFlight: Int, sessions: Int, models: Int) -> String {
        let s = state.withLock { $0 }
        var lines: [String] = []
        func label(_ v: String) -> String {
            v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        lines.append("# HELP vision_tasks_requests_total HTTP requests answered, by route and status.")
        lines.append("# TYPE vision_tasks_requests_total counter")
        for (key, n) in s.requests.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            lines.append(
                "vision_tasks_requests_total{route=\"\(label(String(parts[0])))\",status=\"\(parts.last ?? "")\"} \(n)")
        }
        func histogram(_ name: String, _ help: String, _ key: String, _ values: [String: Histogram]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) histogram")
            for (k, h) in values.sorted(by: { $0.key < $1.key }) {
                let l = "\(key)=\"\(label(k))\""
                for (i, bound) in Self.buckets.enumerated() {
                    lines.append("\(name)_bucket{\(l),le=\"\(number(bound))\"} \(h.counts[i])")
                }
                lines.append("\(name)_bucket{\(l),le=\"+Inf\"} \(h.total)")
                lines.append("\(name)_sum{\(l)} \(h.sum)")
                lines.append("\(name)_count{\(l)} \(h.total)")
            }
        }
        histogram("vision_tasks_request_seconds", "Time from a request's arrival to its answer.", "route", s.latency)
        histogram("vision_tasks_inference_seconds", "Time a model's inference took.", "model", s.inference)
        lines.append("# HELP vision_tasks_refusals_total Requests refused before running, by reason.")
        lines.append("# TYPE vision_tasks_refusals_total counter")
        for (reason, n) in s.refusals.sorted(by: { $0.key < $1.key }) {
            lines.append("vision_tasks_refusals_total{reason=\"\(label(reason))\"} \(n)")
        }
        lines.append("# HELP vision_tasks_zmq_requests_total Frigate ZMQ requests, by kind and result.")
        lines.append("# TYPE vision_tasks_zmq_requests_total counter")
        for (key, n) in s.zmq.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            let kind = label(String(parts[0])), result = label(String(parts.last ?? ""))
            lines.append("vision_tasks_zmq_requests_total{kind=\"\(kind)\",result=\"\(result)\"} \(n)")
        }
        lines.append("# HELP vision_tasks_queue_depth Jobs waiting for a worker.")
        lines.append("# TYPE vision_tasks_queue_depth gauge")
        lines.append("vision_tasks_queue_depth \(queueDepth)")
        lines.append("# HELP vision_tasks_in_flight Jobs running on a worker.")
        lines.append("# TYPE vision_tasks_in_flight gauge")
        lines.append("vision_tasks_in_flight \(inFlight)")
        lines.append("# HELP vision_tasks_track_sessions Open tracking sessions.")
        lines.append("# TYPE vision_tasks_track_sessions gauge")
        lines.append("vision_tasks_track_sessions \(sessions)")
        lines.append("# HELP vision_tasks_models Registered models.")
        lines.append("# TYPE vision_tasks_models gauge")
        lines.append("vision_tasks_models \(models)")
        lines.append("# HELP vision_tasks_resident_bytes Resident memory of the server process.")
        lines.append("# TYPE vision_tasks_resident_bytes gauge")
        lines.append("vision_tasks_resident_bytes \(ProcessMemory.residentBytes())")
        return lines.joined(separator: "\n") + "\n"
    }
}
