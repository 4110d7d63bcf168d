import Foundation

/// A small deterministic generator (xorshift64) for test inputs: the same seed, the same values.
/// Mutation tests take their seed from ``seed(default:)`` and print it in every failure, so a failing
/// run is repeated with `VISION_TASKS_TEST_SEED=<seed>`.
package struct TestRandom: RandomNumberGenerator {
    package var state: UInt64

    /// A generator starting at `state` (0 is replaced by a fixed non-zero state: xorshift stays at 0).
    package init(state: UInt64) { self.state = state == 0 ? 0x9E37_79B9_7F4A_7C15 : state }

    /// The seed of a randomized test: `$VISION_TASKS_TEST_SEED` when set, else `defaultSeed`.
    package static func seed(default defaultSeed: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["VISION_TASKS_TEST_SEED"], let value = UInt64(text) else {
            return defaultSeed
        }
        return value
    }

    package mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A float in `range` (24 bits of resolution).
    package mutating func float(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + (range.upperBound - range.lowerBound) * Float(next() >> 40) / Float(1 << 24)
    }
}
