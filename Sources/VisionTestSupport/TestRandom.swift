/// A small deterministic generator (xorshift64) for test inputs: the same state, the same values.
public struct TestRandom {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }

    /// A float in `range` (24 bits of resolution).
    public mutating func float(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + (range.upperBound - range.lowerBound) * Float(next() >> 40) / Float(1 << 24)
    }
}
