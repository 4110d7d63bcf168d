import CLiteRT
import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `libLiteRt.so`, opened at run time with `dlopen`, and the table of C functions we call.
///
/// Search order for the library (the first that opens wins):
/// 1. an explicit path given to ``load(path:)``;
/// 2. the `LITERT_LIBRARY` environment variable (a file path);
/// 3. `libLiteRt.so` in the `LITERT_LIB_DIR` directory;
/// 4. `.litert/lib/libLiteRt.so` — where `scripts/fetch-litert.sh` and the package plugin
///    (`swift package … fetch-litert`) put it — looked for from the current directory upwards, then
///    from the running executable's directory upwards (an app built in `<package>/.build/…/debug/`
///    finds its package's copy);
/// 5. next to the running executable (`<dir>/libLiteRt.so`, `<dir>/../lib/libLiteRt.so`);
/// 6. an `ai-edge-litert` 2.3.0 installed with pip (the active virtual environment, the user's and the
///    system's site-packages, pyenv's and conda's Pythons);
/// 7. `dlopen("libLiteRt.so")`, i.e. `LD_LIBRARY_PATH` and the system's library paths.
// @unchecked Sendable: immutable (the dlopen handle and the resolved C functions, which LiteRT allows
// from any thread); never closed.
package final class LiteRTLibrary: @unchecked Sendable {
    /// The file that was opened.
    package let path: String
    let handle: UnsafeMutableRawPointer
    let api: FunctionTable

    private init(path: String, handle: UnsafeMutableRawPointer) throws {
        self.path = path
        self.handle = handle
        self.api = try FunctionTable(handle: handle, path: path)
    }

    private static let cached = Locked<LiteRTLibrary?>(nil)

    /// The library found by the default search order, opened once per process.
    package static func shared() throws -> LiteRTLibrary {
        try cached.value { try load() }
    }

    /// The ai-edge-litert release whose `libLiteRt.so` VisionTasks is built and tested against.
    package static let pinnedVersion = "2.3.0"

    /// What to run to get the library, for error messages.
    package static let installHint =
        "In a package that depends on VisionTasks, run `swift package --allow-writing-to-package-directory "
        + "--allow-network-connections all fetch-litert` in the package's directory (it puts ai-edge-litert "
        + "\(pinnedVersion)'s "
        + "libLiteRt.so, sha256-checked, in .litert/lib); or `pip install ai-edge-litert==\(pinnedVersion)`; or set "
        + "LITERT_LIBRARY "
        + "to the path of libLiteRt.so."

    /// Opens the library, looking first at `path` when given, then the default search order.
    package static func load(
        path: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LiteRTLibrary {
        var tried: [String] = []
        for candidate in candidates(explicit: path, environment: environment) {
            if candidate.contains("/") && !FileManager.default.fileExists(atPath: candidate) {
                tried.append("\(candidate) (no such file)")
                continue
            }
            dlerror()
            if let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
                return try LiteRTLibrary(path: candidate, handle: handle)
            }
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            tried.append("\(candidate) (\(reason))")
        }
        let others =
            path == nil ? PythonInstalls.find(environment: environment).filter { $0.version != pinnedVersion } : []
        let otherVersions =
            others.isEmpty
            ? ""
            : " Found, but not used (VisionTasks needs \(pinnedVersion)): "
                + others.map { "ai-edge-litert \($0.version) at \($0.library)" }.joined(separator: "; ") + "."
        throw LiteRTError(
            code: .libraryNotFound,
            message: "LiteRT runtime library libLiteRt.so was not found. Looked in: "
                + tried.joined(separator: "; ") + "." + otherVersions + " " + installHint)
    }

    /// The directory of the running program's file, as Foundation's main bundle knows it (from the kernel, so
    /// right however the program was started — by a path, or by name from `PATH`, where `argv[0]` holds no
    /// directory), else `argv[0]`'s.
    package static var executableDirectory: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? ""))
            .resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Every place the default search order looks, in order.
    package static func candidates(explicit: String?, environment: [String: String]) -> [String] {
        var list: [String] = []
        if let explicit, !explicit.isEmpty {
            // An explicit path is the caller's choice: look nowhere else.
            return [explicit]
        }
        if let file = environment["LITERT_LIBRARY"], !file.isEmpty { list.append(file) }
        if let dir = environment["LITERT_LIB_DIR"], !dir.isEmpty { list.append(dir + "/libLiteRt.so") }
        let exe = executableDirectory
        for start in [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), exe] {
            var dir = start
            for _ in 0..<8 {
                list.append(dir.appendingPathComponent(".litert/lib/libLiteRt.so").path)
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        list.append(exe.appendingPathComponent("libLiteRt.so").path)
        list.append(exe.deletingLastPathComponent().appendingPathComponent("lib/libLiteRt.so").path)
        list += PythonInstalls.find(environment: environment).filter { $0.version == pinnedVersion }.map(\.library)
        list.append("libLiteRt.so")
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }
}

/// The C functions of LiteRT we call, resolved once with `dlsym`.
struct FunctionTable {
    let createEnvironment: LiteRtCreateEnvironmentFn
    let destroyEnvironment: LiteRtDestroyEnvironmentFn
    let createModelFromFile: LiteRtCreateModelFromFileFn
    let createModelFromBuffer: LiteRtCreateModelFromBufferFn
    let destroyModel: LiteRtDestroyModelFn
    let getNumModelSignatures: LiteRtGetNumModelSignaturesFn
    let getModelSignature: LiteRtGetModelSignatureFn
    let getSignatureKey: LiteRtGetSignatureKeyFn
    let getNumSignatureInputs: LiteRtGetNumSignatureIOFn
    let getNumSignatureOutputs: LiteRtGetNumSignatureIOFn
    let getSignatureInputName: LiteRtGetSignatureIONameFn
    let getSignatureOutputName: LiteRtGetSignatureIONameFn
    let getSignatureInputTensorByIndex: LiteRtGetSignatureIOTensorByIndexFn
    let getSignatureOutputTensorByIndex: LiteRtGetSignatureIOTensorByIndexFn
    let getTensorName: LiteRtGetTensorNameFn
    let getTensorTypeId: LiteRtGetTensorTypeIdFn
    let getRankedTensorType: LiteRtGetRankedTensorTypeFn
    let getQuantizationTypeId: LiteRtGetQuantizationTypeIdFn
    let getPerTensorQuantization: LiteRtGetPerTensorQuantizationFn
    let createOptions: LiteRtCreateOptionsFn
    let destroyOptions: LiteRtDestroyOptionsFn
    let setOptionsHardwareAccelerators: LiteRtSetOptionsHardwareAcceleratorsFn
    let createOpaqueOptions: LiteRtCreateOpaqueOptionsFn
    let addOpaqueOptions: LiteRtAddOpaqueOptionsFn
    let createCompiledModel: LiteRtCreateCompiledModelFn
    let destroyCompiledModel: LiteRtDestroyCompiledModelFn
    let getInputBufferRequirements: LiteRtGetCompiledModelBufferRequirementsFn
    let getOutputBufferRequirements: LiteRtGetCompiledModelBufferRequirementsFn
    let getInputTensorLayout: LiteRtGetCompiledModelInputTensorLayoutFn
    let getOutputTensorLayouts: LiteRtGetCompiledModelOutputTensorLayoutsFn
    let getRequirementsBufferSize: LiteRtGetTensorBufferRequirementsBufferSizeFn
    let createTensorBufferFromHostMemory: LiteRtCreateTensorBufferFromHostMemoryFn
    let createManagedTensorBufferFromRequirements: LiteRtCreateManagedTensorBufferFromRequirementsFn
    let destroyTensorBuffer: LiteRtDestroyTensorBufferFn
    let lockTensorBuffer: LiteRtLockTensorBufferFn
    let unlockTensorBuffer: LiteRtUnlockTensorBufferFn
    let runCompiledModel: LiteRtRunCompiledModelFn
    /// Custom op kernels (nil when this libLiteRt.so lacks them: hybrid ops then run built in).
    let addCustomOpKernelOption: LiteRtAddCustomOpKernelOptionFn?
    let getTensorBufferTensorType: LiteRtGetTensorBufferTensorTypeFn?
    /// LiteRT's profiler (nil when this libLiteRt.so lacks it: profiling is then unavailable).
    let profiler: ProfilerFunctions?

    init(handle: UnsafeMutableRawPointer, path: String) throws {
        func sym<T>(_ name: String, _: T.Type) throws -> T {
            guard let pointer = dlsym(handle, name) else {
                throw LiteRTError(
                    code: .symbolMissing, function: name,
                    message:
                        "\(path) does not export \(name); VisionTasks needs ai-edge-litert "
                        + "\(LiteRTLibrary.pinnedVersion)'s libLiteRt.so. "
                        + LiteRTLibrary.installHint)
            }
            return unsafeBitCast(pointer, to: T.self)
        }
        createEnvironment = try sym("LiteRtCreateEnvironment", LiteRtCreateEnvironmentFn.self)
        destroyEnvironment = try sym("LiteRtDestroyEnvironment", LiteRtDestroyEnvironmentFn.self)
        createModelFromFile = try sym("LiteRtCreateModelFromFile", LiteRtCreateModelFromFileFn.self)
        createModelFromBuffer = try sym("LiteRtCreateModelFromBuffer", LiteRtCreateModelFromBufferFn.self)
        destroyModel = try sym("LiteRtDestroyModel", LiteRtDestroyModelFn.self)
        getNumModelSignatures = try sym("LiteRtGetNumModelSignatures", LiteRtGetNumModelSignaturesFn.self)
        getModelSignature = try sym("LiteRtGetModelSignature", LiteRtGetModelSignatureFn.self)
        getSignatureKey = try sym("LiteRtGetSignatureKey", LiteRtGetSignatureKeyFn.self)
        getNumSignatureInputs = try sym("LiteRtGetNumSignatureInputs", LiteRtGetNumSignatureIOFn.self)
        getNumSignatureOutputs = try sym("LiteRtGetNumSignatureOutputs", LiteRtGetNumSignatureIOFn.self)
        getSignatureInputName = try sym("LiteRtGetSignatureInputName", LiteRtGetSignatureIONameFn.self)
        getSignatureOutputName = try sym("LiteRtGetSignatureOutputName", LiteRtGetSignatureIONameFn.self)
        getSignatureInputTensorByIndex = try sym(
            "LiteRtGetSignatureInputTensorByIndex", LiteRtGetSignatureIOTensorByIndexFn.self)
        getSignatureOutputTensorByIndex = try sym(
            "LiteRtGetSignatureOutputTensorByIndex", LiteRtGetSignatureIOTensorByIndexFn.self)
        getTensorName = try sym("LiteRtGetTensorName", LiteRtGetTensorNameFn.self)
        getTensorTypeId = try sym("LiteRtGetTensorTypeId", LiteRtGetTensorTypeIdFn.self)
        getRankedTensorType = try sym("LiteRtGetRankedTensorType", LiteRtGetRankedTensorTypeFn.self)
        getQuantizationTypeId = try sym("LiteRtGetQuantizationTypeId", LiteRtGetQuantizationTypeIdFn.self)
        getPerTensorQuantization = try sym("LiteRtGetPerTensorQuantization", LiteRtGetPerTensorQuantizationFn.self)
        createOptions = try sym("LiteRtCreateOptions", LiteRtCreateOptionsFn.self)
        destroyOptions = try sym("LiteRtDestroyOptions", LiteRtDestroyOptionsFn.self)
        setOptionsHardwareAccelerators = try sym(
            "LiteRtSetOptionsHardwareAccelerators", LiteRtSetOptionsHardwareAcceleratorsFn.self)
        createOpaqueOptions = try sym("LiteRtCreateOpaqueOptions", LiteRtCreateOpaqueOptionsFn.self)
        addOpaqueOptions = try sym("LiteRtAddOpaqueOptions", LiteRtAddOpaqueOptionsFn.self)
        createCompiledModel = try sym("LiteRtCreateCompiledModel", LiteRtCreateCompiledModelFn.self)
        destroyCompiledModel = try sym("LiteRtDestroyCompiledModel", LiteRtDestroyCompiledModelFn.self)
        getInputBufferRequirements = try sym(
            "LiteRtGetCompiledModelInputBufferRequirements", LiteRtGetCompiledModelBufferRequirementsFn.self)
        getOutputBufferRequirements = try sym(
            "LiteRtGetCompiledModelOutputBufferRequirements", LiteRtGetCompiledModelBufferRequirementsFn.self)
        getInputTensorLayout = try sym(
            "LiteRtGetCompiledModelInputTensorLayout", LiteRtGetCompiledModelInputTensorLayoutFn.self)
        getOutputTensorLayouts = try sym(
            "LiteRtGetCompiledModelOutputTensorLayouts", LiteRtGetCompiledModelOutputTensorLayoutsFn.self)
        getRequirementsBufferSize = try sym(
            "LiteRtGetTensorBufferRequirementsBufferSize", LiteRtGetTensorBufferRequirementsBufferSizeFn.self)
        createTensorBufferFromHostMemory = try sym(
            "LiteRtCreateTensorBufferFromHostMemory", LiteRtCreateTensorBufferFromHostMemoryFn.self)
        createManagedTensorBufferFromRequirements = try sym(
            "LiteRtCreateManagedTensorBufferFromRequirements", LiteRtCreateManagedTensorBufferFromRequirementsFn.self)
        destroyTensorBuffer = try sym("LiteRtDestroyTensorBuffer", LiteRtDestroyTensorBufferFn.self)
        lockTensorBuffer = try sym("LiteRtLockTensorBuffer", LiteRtLockTensorBufferFn.self)
        unlockTensorBuffer = try sym("LiteRtUnlockTensorBuffer", LiteRtUnlockTensorBufferFn.self)
        runCompiledModel = try sym("LiteRtRunCompiledModel", LiteRtRunCompiledModelFn.self)
        addCustomOpKernelOption = dlsym(handle, "LiteRtAddCustomOpKernelOption").map {
            unsafeBitCast($0, to: LiteRtAddCustomOpKernelOptionFn.self)
        }
        getTensorBufferTensorType = dlsym(handle, "LiteRtGetTensorBufferTensorType").map {
            unsafeBitCast($0, to: LiteRtGetTensorBufferTensorTypeFn.self)
        }
        profiler = ProfilerFunctions(handle: handle)
    }
}

/// LiteRT's profiler functions, all of them or none.
struct ProfilerFunctions {
    let get: LiteRtCompiledModelGetProfilerFn
    let start: LiteRtProfilerCallFn
    let stop: LiteRtProfilerCallFn
    let reset: LiteRtProfilerCallFn
    let count: LiteRtGetNumProfilerEventsFn
    let events: LiteRtGetProfilerEventsFn

    init?(handle: UnsafeMutableRawPointer) {
        guard let get = dlsym(handle, "LiteRtCompiledModelGetProfiler"),
            let start = dlsym(handle, "LiteRtStartProfiler"),
            let stop = dlsym(handle, "LiteRtStopProfiler"), let reset = dlsym(handle, "LiteRtResetProfiler"),
            let count = dlsym(handle, "LiteRtGetNumProfilerEvents"),
            let events = dlsym(handle, "LiteRtGetProfilerEvents")
        else { return nil }
        self.get = unsafeBitCast(get, to: LiteRtCompiledModelGetProfilerFn.self)
        self.start = unsafeBitCast(start, to: LiteRtProfilerCallFn.self)
        self.stop = unsafeBitCast(stop, to: LiteRtProfilerCallFn.self)
        self.reset = unsafeBitCast(reset, to: LiteRtProfilerCallFn.self)
        self.count = unsafeBitCast(count, to: LiteRtGetNumProfilerEventsFn.self)
        self.events = unsafeBitCast(events, to: LiteRtGetProfilerEventsFn.self)
    }
}

/// Throws a ``LiteRTError`` naming `function` when `status` is not OK.
@inline(__always)
func check(_ status: LiteRtStatus, _ function: StaticString, _ what: @autoclosure () -> String = "") throws {
    if status != 0 {
        let detail = what()
        throw LiteRTError(
            code: .callFailed, function: "\(function)", status: status,
            message: detail.isEmpty ? "LiteRT reported an error; details, if any, are on stderr." : detail)
    }
}
