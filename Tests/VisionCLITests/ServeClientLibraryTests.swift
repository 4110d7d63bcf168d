import Foundation
import Testing
import VisionTestSupport

/// `vision-tasks serve` driven by the client libraries of the other programs that call a detector, as
/// published on PyPI (scripts/serve/client_libraries.py): `pydoods` (Home Assistant's `doods`
/// integration), `deepstack-python` (its `deepstack_object` component) and `codeproject-ai-api`. What
/// each library parses equals `vision-tasks detect` on the same photos; their error paths get the
/// answers the libraries expect. And Blue Iris' and Agent DVR's probes answer as CodeProject.AI's do.
@Suite(
    "serve: the client libraries of DOODS, DeepStack and CodeProject.AI", .serialized,
    .enabled(if: TestAssets.shouldRun))
struct ServeClientLibraryTests {
    static let pictures = ["dog.jpg", "cat_720p.jpg", "person.jpg", "pets.jpg", "giraffe.jpg", "bird.png"].map {
        TestAssets.image($0)
    }

    /// One detection of `detect --jsonl`: label, score, box (pixels), and the picture's size.
    struct Row {
        var label: String
        var score: Double
        var x: Double, y: Double, width: Double, height: Double
    }

    /// `vision-tasks detect` on the photos (every detection), best first per photo, by the file's name.
    static func detectRows() throws -> (rows: [String: [Row]], sizes: [String: (Double, Double)]) {
        let dir = try AppProcess.folder("clients")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/detect.jsonl"
        let r = try AppProcess.run(
            ["detect", "--model", ServeTests.ssd, "--score-threshold", "0", "--jsonl", out] + pictures)
        try #require(r.status == 0, "\(r.stderr)")
        var rows: [String: [Row]] = [:]
        var sizes: [String: (Double, Double)] = [:]
        for record in try AppProcess.records(out) {
            let name = ((record["source"] as? String ?? "") as NSString).lastPathComponent
            sizes[name] = (record["width"] as? Double ?? 0, record["height"] as? Double ?? 0)
            let found = (record["detections"] as? [[String: Any]] ?? []).compactMap { d -> Row? in
                guard let box = d["boundingBox"] as? [String: Double],
                    let c = (d["categories"] as? [[String: Any]])?.first
                else { return nil }
                return Row(
                    label: c["categoryName"] as? String ?? "", score: c["score"] as? Double ?? -1,
                    x: box["originX"] ?? -1, y: box["originY"] ?? -1, width: box["width"] ?? -1,
                    height: box["height"] ?? -1)
            }
            rows[name] = found.enumerated().sorted {
                $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
            }.map(\.element)
        }
        return (rows, sizes)
    }

    @Test("pydoods, deepstack-python and codeproject-ai-api parse detect's rows; their error paths")
    func clientLibraries() throws {
        let keyed = try ServerProcess(["--model", "ssd=" + ServeTests.ssd, "--api-key", "s3cret"])
        defer { _ = keyed.stop() }
        let open = try ServerProcess(["--model", "ssd=" + ServeTests.ssd])
        defer { _ = open.stop() }
        let run = try AppProcess.python(
            [
                ServeTests.script("client_libraries.py"), "127.0.0.1", "\(keyed.port)", "--key", "s3cret",
                "--open-port", "\(open.port)",
            ] + Self.pictures)
        try #require(run.status == 0, "\(run.stdout.suffix(3000))")
        let out = try ServerProcess.json(run.stdout)
        let (expected, sizes) = try Self.detectRows()
        try #require(expected.count == Self.pictures.count && expected.values.allSatisfy { !$0.isEmpty })

        // pydoods: the detectors (the model's own name and DOODS' `default`), then every detection.
        let doods = try #require(out["pydoods"] as? [String: Any])
        let listed = try #require(doods["detectors"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["ssd", "default"])
        for d in listed {
            #expect(d["type"] as? String == "tflite" && d["width"] as? Int == 300 && d["height"] as? Int == 300)
            #expect(d["model"] as? String == "ssd_mobilenet_v1_coco_quant_metadata.tflite" && d["labels"] as? Int == 90)
        }
        #expect((doods["defaultLabels"] as? [String])?.prefix(4) == ["person", "bicycle", "car", "motorcycle"])
        let replies = try #require(doods["replies"] as? [String: [String: Any]])
        for (name, rows) in expected {
            let reply = try #require(replies[name], "\(name)")
            // Home Assistant reads any `error` field as a failure.
            #expect(reply["keys"] as? [String] == ["detections", "duration", "id"] && reply["id"] as? String == name)
            let got = reply["detections"] as? [[String: Any]] ?? []
            let (w, h) = try #require(sizes[name])
            #expect(got.count == rows.count, "\(name)")
            for (g, e) in zip(got, rows) {
                #expect(g["label"] as? String == e.label, "\(name)")
                #expect(abs((g["confidence"] as? Double ?? -1) - e.score * 100) < 1e-4, "\(name)")
                let box = ["top", "left", "bottom", "right"].map { g[$0] as? Double ?? -9 }
                #expect(abs(box[0] * h - e.y) <= 1 && abs(box[1] * w - e.x) <= 1, "\(name) \(box)")
                #expect(abs(box[2] * h - (e.y + e.height)) <= 1 && abs(box[3] * w - (e.x + e.width)) <= 1)
            }
        }
        let doodsErrors = try #require(doods["errors"] as? [String: [String: Any]])
        #expect(doodsErrors["wrongKey"]?["status"] as? Int == 401)
        let bad = try #require(doodsErrors["badPicture"])
        #expect(bad["status"] as? Int == 400)
        #expect(((bad["body"] as? [String: Any])?["error"] as? String)?.contains("JPEG or PNG") == true)
        let unknown = try #require(doodsErrors["unknownDetector"]?["body"] as? [String: Any])
        #expect(doodsErrors["unknownDetector"]?["status"] as? Int == 400)
        #expect(unknown["error"] as? String == "unknown detector name: nope (GET /detectors lists them)")
        #expect((unknown["detections"] as? [Any])?.isEmpty == true)

        // deepstack-python and CodeProject.AI's client: min_confidence 0.1, whole pixels.
        for (library, port) in [("deepstack", keyed.port), ("codeprojectai", open.port)] {
            let parsed = try #require(out[library] as? [String: Any], "\(library)")
            let predictions = try #require(parsed["predictions"] as? [String: [[String: Any]]])
            for (name, rows) in expected {
                let got = predictions[name] ?? []
                let want = rows.filter { $0.score >= 0.1 }
                #expect(got.count == want.count && !got.isEmpty, "\(library) \(name)")
                for (g, e) in zip(got, want) {
                    #expect(
                        g["label"] as? String == e.label && abs((g["confidence"] as? Double ?? -1) - e.score) < 1e-6)
                    let box = ["x_min", "y_min", "x_max", "y_max"].map { Double(g[$0] as? Int ?? -9) }
                    #expect(abs(box[0] - e.x) <= 1 && abs(box[1] - e.y) <= 1, "\(library) \(name)")
                    #expect(abs(box[2] - (e.x + e.width)) <= 1 && abs(box[3] - (e.y + e.height)) <= 1)
                }
            }
            let errors = try #require(parsed["errors"] as? [String: [String: Any]])
            let prefix: String =
                library == "deepstack" ? "Error from Deepstack request, status code: " : "CodeProject.AI Server error: "
            let badPicture = errors["badPicture"]?["message"] as? String
            let unknownModel = errors["unknownModel"]?["message"] as? String
            let badURL = "Bad url supplied, url http://127.0.0.1:\(port)/v1/vision/custom/nope raised error 404"
            #expect(badPicture == prefix + "400", "\(library)")
            #expect(unknownModel == badURL)
        }
        let deepstack = try #require((out["deepstack"] as? [String: Any])?["errors"] as? [String: [String: Any]])
        #expect(deepstack["wrongKey"]?["raised"] as? String == "DeepstackException")
        #expect(deepstack["wrongKey"]?["message"] as? String == "Error from Deepstack request, status code: 401")
        #expect(keyed.stop() == 0 && open.stop() == 0)
    }

    @Test("Blue Iris' and Agent DVR's probes answer as CodeProject.AI: version check, ping, the custom models")
    func blueIrisProbes() throws {
        let server = try ServerProcess(["--model", "ssd=" + ServeTests.ssd, "--api-key", "s3cret"])
        defer { _ = server.stop() }
        // The version check and the ping need no key (Blue Iris sends none), and are never chunked.
        for path in ["/v1/status/updateavailable", "/v1/server/status/updateavailable"] {
            let r = try AppProcess.run(
                ["-s", "-i", server.base + path], executable: "/usr/bin/curl", prefix: ["--max-time", "30"])
            let (head, body) = try #require(Self.split(r.stdout))
            #expect(head.hasPrefix("HTTP/1.1 200") && head.lowercased().contains("content-length: \(body.utf8.count)"))
            #expect(!head.lowercased().contains("chunked") && head.contains("application/json"))
            let json = try ServerProcess.json(body)
            #expect(json["success"] as? Bool == true && json["updateAvailable"] as? Bool == false)
            #expect(json["message"] as? String == "This is the current version" && json["code"] as? Int == 200)
            for field in ["version", "current", "latest"] {
                let v = try #require(json[field] as? [String: Any], "\(field)")
                #expect(v["major"] as? Int == 1 && v["minor"] as? Int == 0 && v["patch"] as? Int == 0)
                #expect(v["securityUpdate"] as? Bool == false && v.keys.contains("preRelease"))
            }
        }
        let ping = try ServerProcess.curl([server.base + "/v1/server/status/ping"])
        #expect(try ping.status == 200 && ServerProcess.json(ping.body)["success"] as? Bool == true)
        // The custom models, by GET (Agent DVR's "Get Models") and POST (CodeProject.AI's own).
        for method in ["GET", "POST"] {
            let list = try ServerProcess.curl(["-X", method, server.base + "/v1/vision/custom/list?api_key=s3cret"])
            let json = try ServerProcess.json(list.body)
            #expect(list.status == 200 && json["models"] as? [String] == ["ssd"] && json["success"] as? Bool == true)
            #expect(json["command"] as? String == "list-custom" && json["moduleId"] as? String == "vision-tasks")
        }
        // Detection by the model's name, as Blue Iris' custom models and Agent DVR's endpoint post it.
        let custom = try ServerProcess.curl([
            "-F", "image=@\(ServeTests.dog)", "-F", "api_key=s3cret", server.base + "/v1/vision/custom/ssd",
        ])
        let body = try ServerProcess.json(custom.body)
        #expect(custom.status == 200 && body["success"] as? Bool == true && body["code"] as? Int == 200)
        #expect(body["command"] as? String == "custom" && body["inferenceDevice"] as? String == "CPU")
        #expect((body["predictions"] as? [Any])?.isEmpty == false)
        #expect(server.stop() == 0)
    }

    @Test("DOODS2's /detect: detect's boxes through its label filters and regions; bad requests are clear 400s")
    func doodsFilters() throws {
        let server = try ServerProcess(["--model", "ssd=" + ServeTests.ssd, "--api-key", "s3cret"])
        defer { _ = server.stop() }
        let (expected, sizes) = try Self.detectRows()
        let rows = try #require(expected["dog.jpg"])
        let (w, h) = try #require(sizes["dog.jpg"])
        let data = try Data(contentsOf: URL(fileURLWithPath: ServeTests.dog)).base64EncodedString()
        let dir = try AppProcess.folder("doods")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func post(_ json: String, key: String? = "s3cret") throws -> (status: Int, body: [String: Any]) {
            let file = dir + "/body.json"
            try Data(json.replacingOccurrences(of: "$DATA", with: data).utf8).write(to: URL(fileURLWithPath: file))
            let r = try ServerProcess.curl(
                ["-H", "Content-Type: application/json", "--data-binary", "@" + file, server.base + "/detect"]
                    + (key.map { ["-H", "doods-auth-key: \($0)"] } ?? []))
            return (r.status, try ServerProcess.json(r.body))
        }
        func labels(_ body: [String: Any]) -> [String] {
            (body["detections"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        }
        // A minimum for every label, and one label's own minimum taking precedence over `*`'s.
        let half = try post(#"{"data": "$DATA", "detect": {"*": 50}}"#)
        #expect(half.status == 200 && labels(half.body) == rows.filter { $0.score * 100 >= 50 }.map(\.label))
        let cars = try post(#"{"data": "$DATA", "detect": {"car": 30, "*": 100}}"#)
        #expect(labels(cars.body) == rows.filter { $0.label == "car" && $0.score * 100 >= 30 }.map(\.label))
        #expect(!labels(cars.body).isEmpty)
        // No filter and no region admits nothing, as DOODS2.
        #expect(try post(#"{"data": "$DATA"}"#).body["detections"] as? [Any] != nil)
        #expect(labels(try post(#"{"data": "$DATA", "detect": {}}"#).body).isEmpty)
        // Regions: the whole picture (covers) admits all, named; the top-left quarter by overlap, only
        // the boxes that touch it.
        let all = try post(
            #"{"data": "$DATA", "regions": [{"id": "all", "top": 0, "left": 0, "bottom": 1, "right": 1, "#
                + #""detect": {"*": 0}, "covers": true}]}"#)
        let allDetections = all.body["detections"] as? [[String: Any]] ?? []
        #expect(allDetections.count == rows.count && allDetections.allSatisfy { $0["region_id"] as? String == "all" })
        let corner = try post(
            #"{"data": "$DATA", "regions": [{"top": 0, "left": 0, "bottom": 0.25, "right": 0.25, "#
                + #""detect": {"*": 0}}]}"#)
        let touching = rows.filter { $0.y / h <= 0.25 && $0.x / w <= 0.25 }.map(\.label)
        #expect(labels(corner.body) == touching && !touching.isEmpty && touching.count < rows.count)
        // Refusals: DOODS' shape, a message naming the field.
        let refusals: [(String, String)] = [
            (#"{"data": 12}"#, "'data' must be the picture as a base64 string."),
            (#"{"data": "$DATA", "detect": ["person"]}"#, "'detect' must be an object of label"),
            (#"{"data": "$DATA", "detect": {"person": "50"}}"#, "a minimum confidence is a number from 0 to 100"),
            (#"{"data": "$DATA", "detect": {"person": 150}}"#, "a minimum confidence is a number from 0 to 100"),
            (#"{"data": "$DATA", "detect": {"unicorn": 50}}"#, "ssd has no label 'unicorn'"),
            (#"{"data": "$DATA", "regions": {"top": 0}}"#, "'regions' must be a list"),
            (#"{"data": "$DATA", "regions": [{"top": 2, "detect": {}}]}"#, "'regions[0].top' must be a number from 0"),
            (#"{"data": "$DATA", "regions": [{"covers": "yes"}]}"#, "'regions[0].covers' must be true or false."),
            (#"{"data": "$DATA", "image": "jpeg"}"#, "'image' is not a field this server takes"),
            (#"{"data": "%%%"}"#, "'data' is not base64"),
            (#"{"data": "aGVsbG8="}"#, "JPEG or PNG"),
            (#"{"data": "$DATA", "detector_name": "nope"}"#, "unknown detector name: nope"),
            (#"[1, 2"#, "The body is not a JSON object"),
            (
                #"{"data": "$DATA", "regions": ["# + Array(repeating: "{}", count: 65).joined(separator: ",") + "]}",
                "'regions' holds 65 regions; at most 64 are taken."
            ),
        ]
        for (body, message) in refusals {
            let r = try post(body)
            #expect(
                r.status == 400 && (r.body["error"] as? String)?.contains(message) == true, "\(body.prefix(80)) → \(r)")
            #expect((r.body["detections"] as? [Any])?.isEmpty == true)
        }
        // The key: DOODS' header (pydoods' way); none, or a wrong one, is refused on both routes.
        #expect(try post(#"{"data": "$DATA", "detect": {"*": 0}}"#, key: nil).status == 401)
        #expect(try post(#"{"data": "$DATA", "detect": {"*": 0}}"#, key: "guess").status == 401)
        #expect(try ServerProcess.curl([server.base + "/detectors"]).status == 401)
        // The server is still up and right after all of them.
        #expect(labels(try post(#"{"data": "$DATA", "detect": {"*": 0}}"#).body) == rows.map(\.label))
        #expect(server.stop() == 0)
    }

    /// An HTTP response's head and body (`curl -i`).
    static func split(_ text: String) -> (String, String)? {
        guard let r = text.range(of: "\r\n\r\n") else { return nil }
        return (String(text[..<r.lowerBound]), String(text[r.upperBound...]))
    }
}
