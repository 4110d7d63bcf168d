import CLiteRT
import Foundation
import Locking

/// A LiteRT environment: CPU accelerator only, LiteRT's own logs at error level.
///
/// One per process is enough; ``shared()`` gives that one. Models and compiled models keep their
/// environment alive.
// @unchecked Sendable: immutable; LiteRT's environment is thread-safe once created (models and
// compiled models are made from it on any thread) and is destroyed only in deinit.
package final class Environment: @unchecked Sendable {
    /// The library this environment lives in.
    package let library: LiteRTLibrary
    let handle: LiteRtEnvironment

    /// Creates an environment in `library` (default: ``LiteRTLibrary/shared()``).
    package init(library: LiteRTLibrary? = nil) throws {
        let library = try library ?? LiteRTLibrary.shared()
        self.library = library
        var options = [LiteRtEnvOption(), LiteRtEnvOption()]
        options[0].tag = 24  // AutoRegisterAccelerators: CPU only
        options[0].value.type = 2
        options[0].value.int_value = 1
        options[1].tag = 25  // MinLoggerSeverity: error
        options[1].value.type = 2
        options[1].value.int_value = 3
        var env: LiteRtEnvironment?
        try check(library.api.createEnvironment(Int32(options.count), options, &env), "LiteRtCreateEnvironment")
        guard let env else {
            throw LiteRTError(
                code: .callFailed, function: "LiteRtCreateEnvironment", message: "returned no environment")
        }
        handle = env
    }

    deinit { library.api.destroyEnvironment(handle) }

    private static let cached = Locked<Environment?>(nil)

    /// The process-wide environment on ``LiteRTLibrary/shared()``.
    package static func shared() throws -> Environment {
        try cached.value { try Environment() }
    }
}
