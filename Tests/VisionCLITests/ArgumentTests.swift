import Foundation
import Testing
import VisionPipeline

@testable import VisionCLI

/// The command line's options: one declaration each (its range the server's too), and values that
/// cannot be mistaken for options.
@Suite("command-line options")
struct ArgumentTests {
    static func parse(_ command: String, _ arguments: [String]) throws -> ParsedCommand {
        let spec = try #require(VisionTasksCommand.commands.first { $0.name == command })
        return try ParsedCommand(spec, arguments)
    }

    static func usage(_ command: String, _ arguments: [String]) -> String? {
        do {
            _ = try parse(command, arguments)
            return nil
        } catch let e as CLIError {
            return e.description
        } catch {
            return "\(error)"
        }
    }

    @Test("a forgotten value is not taken from the next option; --name=--value still gives one")
    func valuesAreNotOptions() throws {
        #expect(
            Self.usage("detect", ["--model", "--json", "a.jpg"])
                == "usage error: --model needs a value (MODEL), got the option --json")
        #expect(
            Self.usage("serve", ["--api-key-file", "--model", "m.tflite"])
                == "usage error: --api-key-file needs a value (FILE), got the option --model")
        #expect(try Self.parse("detect", ["--model=--odd.tflite", "a.jpg"]).string(.model) == "--odd.tflite")
        #expect(try Self.parse("detect", ["--max-results", "-1", "a.jpg"]).int(.maxResults) == -1)
    }

    @Test("--score-threshold takes what the HTTP API's scoreThreshold takes: 0 to 1, or 'model'")
    func scoreThresholdRange() throws {
        #expect(
            Self.usage("detect", ["--score-threshold", "1.5", "a.jpg"])
                == "usage error: --score-threshold must be between 0 and 1, got 1.5")
        #expect(
            Self.usage("detect", ["--score-threshold", "-0.1", "a.jpg"])
                == "usage error: --score-threshold must be between 0 and 1, got -0.1")
        #expect(try Self.parse("detect", ["--score-threshold", "model", "a.jpg"]).string(.scoreThreshold) == "model")
        #expect(try Self.parse("classify", ["--score-threshold", "0.25", "a.jpg"]).float(.scoreThreshold) == 0.25)
    }

    @Test("--threads is one declaration: the same range and default in every command that takes it")
    func threadsDeclaredOnce() throws {
        let specs = VisionTasksCommand.commands.flatMap { c in c.options.filter { $0.name == "threads" } }
        #expect(specs.count >= 6)
        for spec in specs {
            #expect(spec.defaultValue == "1" && spec.help == TaskArguments.threads.help)
        }
        #expect(
            Self.usage("serve", ["--threads", "257"]) == "usage error: --threads must be between 1 and 256, got 257")
        #expect(
            Self.usage("track", ["--threads", "0", "a.mp4"])
                == "usage error: --threads must be between 1 and 256, got 0")
    }

    @Test("every declared default is a valid value of its option (what an absent option reads as)")
    func declaredDefaultsAreValid() throws {
        for command in VisionTasksCommand.commands {
            for option in command.options {
                guard let value = option.defaultValue else { continue }
                #expect(throws: Never.self, "\(command.name) --\(option.name) \(value)") { try option.validate(value) }
            }
        }
        // The server's and the tracker's defaults are theirs, shown as they are.
        let serve = try Self.parse("serve", ["--model", "m.tflite"])
        #expect(try serve.value(.maxQueue, as: Int.self) == 64 && serve.string(.listen) == "127.0.0.1:8080")
        #expect(try Self.parse("track", ["a.mp4"]).value(.trackHigh, as: Double.self) == 0.35)
        #expect(throws: CLIError.self) { try serve.value(.model, as: Int.self) }
    }

}
