/// The one error type of the LiteRT layer: what failed, in which C call, with LiteRT's status.
package struct LiteRTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    package enum Code: Int, Sendable {
        /// `libLiteRt.so` could not be found or opened.
        case libraryNotFound = 1
        /// The library was opened but lacks a function we need (wrong version).
        case symbolMissing = 2
        /// A LiteRT C call returned a non-OK status.
        case callFailed = 3
        /// The caller passed something the runtime cannot take (index out of range, wrong size…).
        case invalidArgument = 4
    }

    /// What kind of failure this is.
    package let code: Code
    /// The C function that failed, when one did.
    package let function: String?
    /// The raw `LiteRtStatus`, when a C call failed.
    package let status: Int32?
    /// A message that says what happened and what to do about it.
    package let message: String

    package init(code: Code, function: String? = nil, status: Int32? = nil, message: String) {
        self.code = code
        self.function = function
        self.status = status
        self.message = message
    }

    /// LiteRT's own name for `status` (`kLiteRtStatusErrorFileIO`…).
    package var statusName: String? { status.map(LiteRTError.statusName) }

    package var description: String {
        var parts: [String] = []
        if let function { parts.append("\(function) failed") }
        if let status { parts.append("with \(LiteRTError.statusName(status)) (\(status))") }
        let head = parts.joined(separator: " ")
        return head.isEmpty ? message : "\(head): \(message)"
    }

    /// Names of LiteRT status codes (the library exports no status-to-string function).
    package static func statusName(_ status: Int32) -> String {
        switch status {
        case 0: return "kLiteRtStatusOk"
        case 1: return "kLiteRtStatusErrorInvalidArgument"
        case 2: return "kLiteRtStatusErrorMemoryAllocationFailure"
        case 3: return "kLiteRtStatusErrorRuntimeFailure"
        case 4: return "kLiteRtStatusErrorMissingInputTensor"
        case 5: return "kLiteRtStatusErrorUnsupported"
        case 6: return "kLiteRtStatusErrorNotFound"
        case 7: return "kLiteRtStatusErrorTimeoutExpired"
        case 8: return "kLiteRtStatusErrorWrongVersion"
        case 9: return "kLiteRtStatusErrorUnknown"
        case 10: return "kLiteRtStatusErrorAlreadyExists"
        case 100: return "kLiteRtStatusCancelled"
        case 500: return "kLiteRtStatusErrorFileIO"
        case 501: return "kLiteRtStatusErrorInvalidFlatbuffer"
        case 502: return "kLiteRtStatusErrorDynamicLoading"
        case 503: return "kLiteRtStatusErrorSerialization"
        case 504: return "kLiteRtStatusErrorCompilation"
        case 1000: return "kLiteRtStatusErrorIndexOOB"
        case 1001: return "kLiteRtStatusErrorInvalidIrType"
        case 1002: return "kLiteRtStatusErrorInvalidGraphInvariant"
        case 1003: return "kLiteRtStatusErrorGraphModification"
        case 1500: return "kLiteRtStatusErrorInvalidToolConfig"
        case 2000: return "kLiteRtStatusLegalizeNoMatch"
        case 2001: return "kLiteRtStatusErrorInvalidLegalization"
        case 3000: return "kLiteRtStatusPatternNoMatch"
        case 3001: return "kLiteRtStatusInvalidTransformation"
        case 4000: return "kLiteRtStatusErrorUnsupportedRuntimeVersion"
        case 4001: return "kLiteRtStatusErrorUnsupportedCompilerVersion"
        case 4002: return "kLiteRtStatusErrorIncompatibleByteCodeVersion"
        case 5000: return "kLiteRtStatusErrorUnsupportedOpShapeInferer"
        case 5001: return "kLiteRtStatusErrorShapeInferenceFailed"
        default: return "LiteRtStatus(\(status))"
        }
    }
}
