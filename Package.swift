// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VisionTasks",
    products: [
        .library(name: "MediaPipeTasksVision", targets: ["MediaPipeTasksVision"]),
        .library(name: "MLKit", targets: ["MLKit"]),
        .library(name: "UIKitCompat", targets: ["UIKitCompat"]),
        .library(name: "Video", targets: ["Video"]),
        .library(name: "VisionAnalytics", targets: ["VisionAnalytics"]),
        .executable(name: "vision-tasks", targets: ["vision-tasks"]),
        // `swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert`
        // in a package that depends on this one: LiteRT's runtime library into its .litert/lib.
        .plugin(name: "FetchLiteRT", targets: ["FetchLiteRT"]),
    ],
    targets: [
        // C declarations of the LiteRT C ABI subset we call. Header only; links nothing.
        .target(name: "CLiteRT"),
        // Our exact kernels (hybrid depthwise, 1×1 convolutions), registered with LiteRT as custom ops. No
        // build flags of their own (a package depended on by version may not have any): intrinsics where
        // libm would be called, and in an unoptimized (debug) build LiteRT's own kernels are the default.
        .target(name: "CKernels", dependencies: ["CLiteRT", "CKernelFormats"]),
        // The custom ops' options formats (magic, version, layout), declared once for the Swift rewrites
        // that write them and the C kernels that read them. Header only; links nothing.
        .target(name: "CKernelFormats"),
        // A lock-protected value (the shared state of the Sendable classes), seen by ThreadSanitizer.
        .target(name: "Locking"),
        .target(name: "LiteRT", dependencies: ["CLiteRT", "CKernels", "FileInput", "Locking"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libjpeg behind a tiny C layer that turns its longjmp errors into return codes.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // libpng, and a fast path for common PNGs (libdeflate's inflate, our unfiltering).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate")]),
        // The preprocessor's vector sampler (AVX2 intrinsics, which Swift cannot reach).
        .target(name: "CImaging"),
        // FFmpeg's libraries (libavformat, libavcodec, libswscale, libavdevice for cameras) behind a small C layer,
        // opened at run time (dlopen): built against their headers, needed only to read or write video.
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        // The serve protocols' parsing, pure and fuzzed: Frigate's ZMQ requests, typed query arguments.
        .target(name: "ServeProtocol"),
        // libmicrohttpd behind a small C layer: the HTTP server of `vision-tasks serve`.
        .target(name: "CHTTPServer", linkerSettings: [.linkedLibrary("microhttpd")]),
        // libzmq behind a small C layer: one REP socket for Frigate's zmq detector.
        .target(name: "CZMQ", linkerSettings: [.linkedLibrary("zmq")]),
        // Video files in (decoded frames with timestamps) and out (encoded annotated frames).
        .target(name: "Video", dependencies: ["CFFmpeg", "Imaging", "Locking"]),
        // OpenSSL's libcrypto (SHA-256 over mapped files).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Whole regular files read without blocking on FIFOs or devices; their SHA-256.
        .target(name: "FileInput", dependencies: ["CCrypto"]),
        .target(name: "TFLiteModel", dependencies: ["CZlib", "CKernelFormats", "FileInput"]),
        .target(name: "Imaging", dependencies: ["CJPEG", "CPNG", "CImaging", "FileInput", "Locking"]),
        .target(name: "VisionCore", dependencies: ["LiteRT", "TFLiteModel", "Imaging", "FileInput", "Locking", "Assignment"]),
        // Linux stand-ins for the UIKit / Core Video / Core Media types the seeds hand to the APIs.
        .target(name: "UIKitCompat", dependencies: ["Imaging", "Locking"]),
        .target(name: "MediaPipeTasksVision", dependencies: ["VisionCore", "Imaging", "UIKitCompat", "FileInput", "Locking"]),
        // ML Kit's custom-model vision API on the same core.
        .target(name: "MLKit", dependencies: ["VisionCore", "Imaging", "UIKitCompat", "FileInput", "Locking"],
                exclude: ["Resources/LOCALIZER.md"],
                resources: [.copy("Resources/ssd_mobilenet_v1_coco_quant_metadata.tflite")]),
        // The minimum-cost assignment (Hungarian method) that the tracker and the tracking evaluation share.
        .target(name: "Assignment"),
        // Accuracy on labelled data (COCO detection metrics, classification, tracking) and zone/line counting.
        .target(name: "VisionAnalytics", dependencies: ["Assignment"]),
        // The app's pipeline: inputs, picture loading, the four tasks, records and their writers, the
        // batch and live runners. The command line, the server and `eval` all run it.
        .target(name: "VisionPipeline", dependencies: ["VisionAnalytics", "MediaPipeTasksVision", "MLKit", "Video", "VisionCore", "Imaging", "LiteRT", "Locking"]),
        // `serve`: HTTP (DeepStack / CodeProject.AI, our JSON API, tracking sessions, videos, the browser
        // app) and Frigate's ZMQ detector, on the pipeline; never on the command line.
        .target(name: "VisionServer", dependencies: ["VisionPipeline", "CHTTPServer", "CZMQ", "ServeProtocol", "MediaPipeTasksVision", "MLKit", "Video", "VisionCore", "TFLiteModel", "FileInput", "Locking"],
                resources: [.copy("Resources/app.html")]),
        // The command line: argument parsing and the commands, each a call into the libraries.
        .target(name: "VisionCLI", dependencies: ["VisionServer", "VisionPipeline", "ServeProtocol", "VisionAnalytics", "MediaPipeTasksVision", "MLKit", "Video", "VisionCore", "Imaging", "TFLiteModel", "LiteRT", "FileInput", "Locking"]),
        .executableTarget(name: "vision-tasks", dependencies: ["VisionCLI"]),
        .target(name: "VisionTestSupport", dependencies: ["TFLiteModel", "FileInput", "VisionCore", "LiteRT", "Locking"]),
        .plugin(name: "FetchLiteRT",
                capability: .command(intent: .custom(verb: "fetch-litert",
                                                     description: "Downloads LiteRT's libLiteRt.so (ai-edge-litert 2.3.0 from PyPI, sha256-checked) into .litert/lib"),
                                     permissions: [.writeToPackageDirectory(reason: "Puts libLiteRt.so in .litert/lib of this package"),
                                                   .allowNetworkConnections(scope: .all(), reason: "Downloads ai-edge-litert 2.3.0 from PyPI")])),
        .testTarget(name: "LiteRTTests", dependencies: ["LiteRT", "VisionTestSupport", "TFLiteModel"]),
        .testTarget(name: "TFLiteModelTests", dependencies: ["TFLiteModel", "VisionTestSupport"]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "VisionTestSupport", "Imaging"]),
        .testTarget(name: "VisionAnalyticsTests", dependencies: ["VisionAnalytics", "VisionTestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CJPEG", "CZlib", "FileInput", "VisionTestSupport"]),
        .testTarget(name: "VisionCoreTests", dependencies: ["VisionCore", "VisionTestSupport", "CKernels", "CKernelFormats", "LiteRT", "TFLiteModel", "Imaging", "FileInput"]),
        // Our C kernels, bit for bit against LiteRT's own on single ops and whole models.
        .testTarget(name: "CKernelsTests", dependencies: ["CKernels", "CKernelFormats", "FileInput", "VisionCore", "VisionTestSupport", "LiteRT", "TFLiteModel"]),
        .testTarget(name: "VisionCLITests", dependencies: ["VisionCLI", "VisionPipeline", "VisionServer", "VisionTestSupport", "MediaPipeTasksVision", "MLKit", "Video", "Imaging", "LiteRT", "TFLiteModel", "VisionCore"]),
        // Client code written against MediaPipe's iOS headers, compiled and run as an app would.
        .testTarget(name: "MLKitTests", dependencies: ["MLKit", "MediaPipeTasksVision", "VisionTestSupport", "TFLiteModel", "Video", "Imaging"]),
        .testTarget(name: "IOSClientTests", dependencies: ["MediaPipeTasksVision", "VisionTestSupport"]),
        .testTarget(name: "MediaPipeTasksVisionTests", dependencies: ["MediaPipeTasksVision", "VisionTestSupport", "FileInput", "TFLiteModel", "VisionCore", "Locking", "Imaging"]),
    ]
)
