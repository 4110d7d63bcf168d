import Foundation

/// A monotonic clock in seconds, for timings reported to users and benchmarks.
package enum Clock {
    /// Seconds since an arbitrary fixed point (monotonic).
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
