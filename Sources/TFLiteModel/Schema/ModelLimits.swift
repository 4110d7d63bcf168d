/// Upper bounds a model must respect before it is handed to the runtime.
package struct ModelLimits: Sendable, Equatable {
    /// Largest single tensor, in bytes (default 256 MiB).
    package var maxTensorBytes: Int
    /// Largest total of all non-constant tensors of the model, in bytes (default 1 GiB).
    package var maxActivationBytes: Int

    /// Limits with the given bounds.
    package init(maxTensorBytes: Int = 256 << 20, maxActivationBytes: Int = 1 << 30) {
        self.maxTensorBytes = maxTensorBytes
        self.maxActivationBytes = maxActivationBytes
    }

    /// The defaults: 256 MiB per tensor, 1 GiB of activations.
    package static let standard = ModelLimits()
}
