import Imaging
import LiteRT
import Locking
import TFLiteModel

/// A compiled model plus the image preprocessing for its input: write a picture into the input
/// tensor (zero copy), run, and read outputs — serialized per instance.
package final class ImageInference: Sendable {
    package let resources: ModelResources
    package let spec: ImageTensorSpec
    /// The compiled model (LiteRT's, or a test's fake).
    package let compiled: any InferenceModel
    /// The outputs in the model file's order.
    package let outputs: ModelOutputs
    /// The preprocessor (its scratch and plan cache) and the last timings.
    private let state: Locked<State>
    private struct State {
        let preprocessor: ImagePreprocessor
        var timings = StageTimings()
    }

    /// Compiles the model with `threads` CPU threads.
    package init(resources: ModelResources, spec: ImageTensorSpec, threads: Int = 1) throws {
        self.resources = resources
        self.spec = spec
        do {
            compiled = try resources.loaded.compile(threads: threads)
        } catch let e as LiteRTError {
            throw VisionCoreError(.internal, e.description, underlying: e)
        }
        let preprocessor = ImagePreprocessor()
        preprocessor.threads = threads
        state = Locked(State(preprocessor: preprocessor))
        outputs = try ModelOutputs(
            compiled: compiled, tensorNames: resources.file.subgraphs[0].outputTensors.map(\.name))
        guard let input = compiled.inputs.first, input.byteCount == spec.tensorFormat.byteCount else {
            throw VisionCoreError(
                .internal,
                "The compiled model's input does not match its declared \(spec.width)x\(spec.height)x\(spec.channels) "
                    + "shape."
            )
        }
    }

    /// Timings of the last ``run(_:orientation:region:_:)`` in seconds (preprocess, inference).
    package var lastTimings: StageTimings { state.withLock { $0.timings } }

    /// Preprocesses `bitmap` into the input tensor, runs the model, then calls `read` with the
    /// compiled model (outputs readable) — all under the model's lock.
    package func run<T>(
        _ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect,
        _ read: (ModelOutputs) throws -> T
    ) throws -> T {
        try compiled.invoke {
            let t0 = Clock.now()
            do {
                try state.withLock { state in
                    try compiled.withInput(0) { buffer in
                        try state.preprocessor.process(
                            bitmap, orientation: orientation, region: region, format: spec.tensorFormat, into: buffer)
                    }
                }
            } catch let e as ImagingError {
                throw VisionCoreError(.invalidArgument, e.message, underlying: e)
            }
            return try invokeAndRead(preprocessStart: t0, read)
        }
    }

    /// The model's input tensor: its shape and element type (what ``run(tensor:_:)`` takes).
    package var input: TensorDescription? { compiled.inputs.first }

    /// Copies `tensor` — exactly the input tensor's bytes, in its shape, type and layout — into the
    /// input (no decoding, resizing or normalization), runs the model, then calls `read` — all under
    /// the model's lock. A tensor of another size is refused.
    package func run<T>(tensor: [UInt8], _ read: (ModelOutputs) throws -> T) throws -> T {
        try compiled.invoke {
            let t0 = Clock.now()
            try compiled.withInput(0) { buffer in
                guard buffer.count == tensor.count else {
                    throw VisionCoreError(
                        .invalidArgument,
                        "The model's input takes \(buffer.count) bytes "
                            + "(\(spec.width)x\(spec.height)x\(spec.channels)), "
                            + "got a tensor of \(tensor.count).")
                }
                tensor.withUnsafeBytes { buffer.copyMemory(from: $0) }
            }
            return try invokeAndRead(preprocessStart: t0, read)
        }
    }

    /// Runs the model on the input already written (since `preprocessStart`), records the stage
    /// timings, then calls `read`; LiteRT's failures become ``VisionCoreError``s. Call it inside
    /// `compiled.invoke`.
    private func invokeAndRead<T>(preprocessStart t0: Double, _ read: (ModelOutputs) throws -> T) throws -> T {
        let t1 = Clock.now()
        do { try compiled.run() } catch let e as LiteRTError {
            throw VisionCoreError(.internal, e.description, underlying: e)
        }
        let t2 = Clock.now()
        state.withLock { $0.timings = StageTimings(preprocess: t1 - t0, inference: t2 - t1) }
        do { return try read(outputs) } catch let e as LiteRTError {
            throw VisionCoreError(.internal, e.description, underlying: e)
        }
    }
}
