import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory --allow-network-connections all fetch-litert`:
/// puts LiteRT's runtime library (`libLiteRt.so` from PyPI's ai-edge-litert 2.3.0, sha256-checked, for
/// this machine's architecture) into `.litert/lib/` of the package it is run in, where VisionTasks'
/// library search finds it (from the package directory, and from any executable built under its `.build`).
///
/// Arguments: `--output DIR` puts the library in DIR instead.
@main
struct FetchLiteRT: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var destination = context.package.directoryURL.appendingPathComponent(".litert/lib")
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--output":
                guard let value = rest.popFirst() else { throw PluginFailure("--output needs a directory") }
                destination = URL(fileURLWithPath: value, relativeTo: context.package.directoryURL)
            case "--allow-writing-to-package-directory", "--allow-network-connections", "all":
                continue  // SwiftPM's own flags, passed on when written after the verb
            default:
                throw PluginFailure("unknown argument '\(argument)' (usage: fetch-litert [--output DIR])")
            }
        }
        guard let checkout = Self.visionTasks(in: context.package) else {
            throw PluginFailure("could not find the VisionTasks package among this package's dependencies")
        }
        let script = checkout.directoryURL.appendingPathComponent("scripts/fetch-litert.sh")
        let bash = try context.tool(named: "bash")
        let process = Process()
        process.executableURL = bash.url
        process.arguments = [script.path, "--dest", destination.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginFailure(
                "scripts/fetch-litert.sh failed (exit \(process.terminationStatus)); its messages are above")
        }
    }

    /// VisionTasks itself: the package the command runs in, or one of its dependencies, at any depth.
    static func visionTasks(in package: Package) -> Package? {
        var queue = [package]
        var seen = Set<String>()
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next.id).inserted else { continue }
            if next.displayName == "VisionTasks" { return next }
            queue.append(contentsOf: next.dependencies.map(\.package))
        }
        return nil
    }
}

/// A failure the plugin reports as `error: <message>`.
struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = "fetch-litert: " + message }
}
