import Foundation
import Testing
import VisionPipeline
import VisionTestSupport

/// The configurations in deploy/ work as written: each is read as its program reads it and drives a
/// running `serve` through that program's own client code (scripts/serve/check_deploy.py) — Home
/// Assistant's `doods` and `deepstack_object`, Frigate's deepstack detector — and the image's users
/// (compose, Kubernetes) name the image `make image` builds, with arguments serve takes.
@Suite("deploy/: the clients' configurations, checked", .serialized, .enabled(if: TestAssets.shouldRun))
struct DeployConfigTests {
    static var deploy: String { TestAssets.packageRoot.appendingPathComponent("deploy").path }

    @Test("Home Assistant (doods, deepstack_object) and Frigate, with the settings in deploy/, get detect's rows")
    func clientConfigurations() throws {
        // The model under the image's name, so the files' model names resolve as in the container.
        let server = try ServerProcess(["--model", "ssd_mobilenet_v1=" + ServeTests.ssd, "--api-key", "s3cret"])
        defer { _ = server.stop() }
        let run = try AppProcess.python([
            ServeTests.script("check_deploy.py"), Self.deploy, "127.0.0.1", "\(server.port)", "--key", "s3cret",
            "--picture", ServeTests.dog,
        ])
        try #require(run.status == 0, "\(run.stdout.suffix(3000))")
        let out = try ServerProcess.json(run.stdout)
        let (expected, sizes) = try ServeClientLibraryTests.detectRows()
        let rows = try #require(expected["dog.jpg"])
        let height = try #require(sizes["dog.jpg"]).1

        // doods: the detector found by its name, the minimums as Home Assistant builds them, no `error`,
        // and the matches are detect's rows through those minimums and the dog's area.
        let doods = try #require(out["doods"] as? [String: Any])
        #expect(doods["detector"] as? String == "default" && doods["error"] is NSNull)
        #expect(doods["dconfig"] as? [String: Double] == ["person": 60, "car": 50, "dog": 50])
        let minimum: [String: Double] = ["person": 60, "car": 50, "dog": 50]
        let want = rows.filter { r in
            guard let m = minimum[r.label], r.score * 100 >= m else { return false }
            return r.label != "dog" || r.y / height >= 0.2
        }.map(\.label)
        let matches = (doods["matches"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        #expect(matches == want && !matches.isEmpty, "\(matches) vs \(want)")

        // deepstack_object: the custom model by name, detect's rows over 0.1.
        let deepstack = try #require(out["deepstack_object"] as? [String: Any])
        #expect(deepstack["customModel"] as? String == "ssd_mobilenet_v1")
        let labels = (deepstack["predictions"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        #expect(labels == rows.filter { $0.score >= 0.1 }.map(\.label) && !labels.isEmpty)

        // Frigate: its deepstack detector's URL is our route; DeepStack's 0.4 default applies.
        let frigate = try #require(out["frigate"] as? [String: Any])
        #expect(frigate["type"] as? String == "deepstack" && frigate["path"] as? String == "/v1/vision/detection")
        let frigateLabels = (frigate["predictions"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        #expect(frigate["status"] as? Int == 200 && frigateLabels == rows.filter { $0.score >= 0.4 }.map(\.label))
        #expect(server.stop() == 0)

        // compose: the image make image builds, its key from a secret file, the health check on the port
        // it listens on.
        let compose = try #require(out["compose"] as? [String: Any])
        #expect(compose["image"] as? String == "localhost/vision-tasks:\(BuildInfo.version)")
        #expect((compose["command"] as? [String])?.first == "serve")
        #expect((compose["command"] as? [String])?.contains("--api-key-file") == true)
        #expect((compose["environment"] as? [String: String])?["VISION_TASKS_LISTEN"] == "0.0.0.0:8080")
        #expect((compose["healthcheck"] as? [String])?.last == "http://127.0.0.1:8080/healthz")
        #expect(compose["ports"] as? [String] == ["8080:8080"])

        // Kubernetes: the same image; its args start serve (the paths made local, the address loopback).
        let kube = try #require(out["kubernetes"] as? [String: Any])
        #expect(kube["image"] as? String == "localhost/vision-tasks:\(BuildInfo.version)" && kube["command"] is NSNull)
        #expect(kube["readiness"] as? String == "/readyz" && kube["liveness"] as? String == "/healthz")
        let dir = try AppProcess.folder("deploy")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "k8s-s3cret\n".write(toFile: dir + "/api-key", atomically: true, encoding: .utf8)
        let models = (ServeTests.ssd as NSString).deletingLastPathComponent
        let arguments = try #require(kube["args"] as? [String]).dropFirst().map {
            $0.replacingOccurrences(of: "--listen=0.0.0.0:8080", with: "--listen=127.0.0.1:0")
                .replacingOccurrences(of: "/usr/share/vision-tasks/models", with: models)
                .replacingOccurrences(of: "/run/secrets/vision-tasks", with: dir)
        }
        #expect(try #require(kube["args"] as? [String]).first == "serve")
        let k8s = try ServerProcess(Array(arguments), listen: false)
        defer { _ = k8s.stop() }
        #expect(try ServerProcess.curl([k8s.base + "/readyz"]).status == 200)
        #expect(
            try ServerProcess.curl(["-H", "Authorization: Bearer k8s-s3cret", k8s.base + "/v1/models"]).status == 200)
        #expect(k8s.stop() == 0)
    }

    @Test("the systemd unit: systemd-analyze verify finds nothing to say, and serve starts with its ExecStart")
    func systemdUnit() throws {
        let path = Self.deploy + "/systemd/vision-tasks.service"
        let unit = try String(contentsOfFile: path, encoding: .utf8)
        // ExecStart's words, its continuation lines joined.
        var words: [String] = []
        var collecting = false
        for raw in unit.split(separator: "\n") {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("ExecStart=") {
                collecting = true
                line = String(line.dropFirst("ExecStart=".count))
            } else if !collecting {
                continue
            }
            let continues = line.hasSuffix("\\")
            if continues { line = String(line.dropLast()) }
            words += line.split(separator: " ").map(String.init)
            if !continues { break }
        }
        #expect(Array(words.prefix(2)) == ["/usr/local/bin/vision-tasks", "serve"], "\(words)")
        let models = (ServeTests.ssd as NSString).deletingLastPathComponent
        let arguments = words.dropFirst(2).map {
            $0.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:0")
                .replacingOccurrences(of: "tcp://127.0.0.1:5555", with: "tcp://127.0.0.1:*")
                .replacingOccurrences(of: "/var/lib/vision-tasks", with: models)
        }
        let server = try ServerProcess(Array(arguments), listen: false)
        defer { _ = server.stop() }
        #expect(try ServerProcess.curl([server.base + "/readyz"]).status == 200)
        #expect(server.zmq != nil)
        #expect(server.stop() == 0)
        // The unit's syntax as systemd reads it (its program pointed at the built one, which must exist).
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else { return }
        let dir = try AppProcess.folder("unit")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/vision-tasks.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/vision-tasks", with: AppProcess.binary)
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let verify = try AppProcess.run(["verify", copy], executable: analyze)
        #expect(verify.status == 0 && verify.stderr.isEmpty && verify.stdout.isEmpty, "\(verify.stderr)")
    }
}
