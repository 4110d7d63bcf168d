/// How long one task call spent in each stage, in seconds.
package struct StageTimings: Equatable, Sendable {
    package var preprocess: Double
    package var inference: Double
    package var postprocess: Double

    package init(preprocess: Double = 0, inference: Double = 0, postprocess: Double = 0) {
        self.preprocess = preprocess
        self.inference = inference
        self.postprocess = postprocess
    }

    /// The three stages as the facades' `lastTimings` give them (a tuple: no core type in their API).
    package typealias Tuple = (preprocess: Double, inference: Double, postprocess: Double)

    package var tuple: Tuple { (preprocess, inference, postprocess) }

    package init(_ tuple: Tuple) {
        self.init(preprocess: tuple.preprocess, inference: tuple.inference, postprocess: tuple.postprocess)
    }
}
