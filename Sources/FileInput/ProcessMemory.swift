import Foundation

/// The process's resident memory (`/proc/self/statm`): leak checks, `soak`, `bench --memory` and the server's
/// metrics.
package enum ProcessMemory {
    /// Resident set size in bytes (from /proc/self/statm), or 0 when unavailable.
    package static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
