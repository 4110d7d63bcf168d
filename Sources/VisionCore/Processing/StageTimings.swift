/// How long one task call spent in each stage, in seconds.
public struct StageTimings: Equatable, Sendable {
    public var preprocess: Double
    public var inference: Double
    public var postprocess: Double

    public init(preprocess: Double = 0, inference: Double = 0, postprocess: Double = 0) {
        self.preprocess = preprocess
        self.inference = inference
        self.postprocess = postprocess
    }

    /// The three stages as the facades' `lastTimings` give them (a tuple: no core type in their API).
    public typealias Tuple = (preprocess: Double, inference: Double, postprocess: Double)

    public var tuple: Tuple { (preprocess, inference, postprocess) }

    public init(_ tuple: Tuple) { self.init(preprocess: tuple.preprocess, inference: tuple.inference, postprocess: tuple.postprocess) }
}
