import Foundation
import Testing
import VisionServer
import VisionTestSupport

/// `serve`'s routes are declared once (`Route.all`): requests are matched and labelled by it (and the route
/// table of the Serving article is generated from it: GeneratedDocsTests).
@Suite("serve's route table")
struct RouteTableTests {
    @Test("paths match their routes (fixed paths before a {segment}), labels leave ids out, other paths are 'other'")
    func matching() {
        #expect(Route.matching("/v1/vision/custom/list").map(\.route.action) == [.deepStackList])
        #expect(Route.matching("/v1/vision/custom/ssd").map(\.route.action) == [.deepStackCustom])
        #expect(Route.matching("/v1/vision/custom/ssd").map(\.parameter) == ["ssd"])
        #expect(Route.matching("/v1/track/cam-1").map(\.route.action) == [.track, .trackEnd])
        #expect(Route.label("/v1/videos/0f3a.mp4") == "/v1/videos/{id}")
        #expect(Route.label("/v1/video") == "/v1/video")
        #expect(Route.label("/v2/nothing") == "other")
        #expect(Route.matching("/v1/detect/extra").isEmpty)
        // Every route that runs a model or lists them needs the key; the probes (health, CodeProject.AI's
        // version check and ping, which Blue Iris sends with no key), the metrics and the app do not.
        let keyed = Route.all.filter(\.keyed).map(\.path)
        let probes: Set = ["/v1/status/updateavailable", "/v1/server/status/updateavailable", "/v1/server/status/ping"]
        #expect(
            keyed
                == Route.all.map(\.path).filter {
                    ($0.hasPrefix("/v1/") && !probes.contains($0)) || $0 == "/detect" || $0 == "/detectors"
                })
        // Each API's refusals take its shape, also on paths no route has.
        #expect(Route.dialect("/detect") == .doods && Route.dialect("/detectors") == .doods)
        #expect(Route.dialect("/v1/vision/custom/x") == .deepStack && Route.dialect("/v1/vision/nothing") == .deepStack)
        #expect(Route.dialect("/v1/status/updateavailable") == .deepStack && Route.dialect("/v1/detect") == .ours)
        #expect(Route.dialect("/nothing") == .ours)
    }
}
