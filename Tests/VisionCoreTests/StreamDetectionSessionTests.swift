import Imaging
import Synchronization
import Testing

@testable import VisionCore

/// A localizer that returns scripted boxes, one list per picture, and records the orientations.
final class ScriptedLocalizer: ObjectLocalizing {
    private let frames: [[LocalizedBox]]
    private let calls = Mutex<[ImageOrientation]>([])
    init(_ frames: [[LocalizedBox]]) { self.frames = frames }
    var orientations: [ImageOrientation] { calls.withLock { $0 } }

    func localize(_ bitmap: Bitmap, orientation: ImageOrientation) throws -> [LocalizedBox] {
        let n = calls.withLock { c in
            c.append(orientation); return c.count
        }
        return frames[min(n - 1, frames.count - 1)]
    }
}

/// A classifier whose label says which region it saw, and that counts its runs.
final class ScriptedClassifier: RegionClassifying {
    private let regions = Mutex<[(NormalizedRect, ImageOrientation)]>([])
    var seen: [(NormalizedRect, ImageOrientation)] { regions.withLock { $0 } }

    func classifyRegion(_ bitmap: Bitmap, orientation: ImageOrientation, region: NormalizedRect) throws -> [Category] {
        regions.withLock { $0.append((region, orientation)) }
        return [Category(index: Int(region.x * 1000), score: 0.9, categoryName: "at \(Int(region.x * 1000))")]
    }
}

@Suite("Stream detection session (scripted localizer and classifier)")
struct StreamDetectionSessionTests {
    static let picture = try! Bitmap(width: 640, height: 480, format: .rgb8)

    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ score: Float) -> LocalizedBox {
        LocalizedBox(box: TrackBox(x: x, y: y, width: w, height: h), score: score)
    }

    static func session(
        _ mode: StreamDetectionOptions.Mode, max: Int, _ frames: [[LocalizedBox]],
        classifier: ScriptedClassifier? = ScriptedClassifier(),
        interval: Int = 30
    ) -> (StreamDetectionSession, ScriptedLocalizer) {
        let localizer = ScriptedLocalizer(frames)
        return (
            StreamDetectionSession(
                options: StreamDetectionOptions(mode: mode, maxObjects: max, reclassifyInterval: interval),
                localizer: localizer, classifier: classifier), localizer
        )
    }

    @Test(
        """
        single image, one object: the most prominent confident box (score × area × centrality), no ID; the \
        orientation reaches both models
        """
    )
    func singleMostProminent() throws {
        let boxes = [
            Self.box(0, 0, 100, 100, 0.95),  // confident, small, in a corner
            Self.box(220, 140, 200, 200, 0.7),  // big and central: the most prominent
            Self.box(200, 100, 240, 280, 0.45),
        ]  // bigger, but below the 0.5 threshold
        let classifier = ScriptedClassifier()
        let (session, localizer) = Self.session(.singleImage, max: 1, [boxes], classifier: classifier)
        let objects = try session.process(Self.picture, orientation: .right, timestampMs: nil)
        #expect(objects.map(\.box) == [TrackBox(x: 220, y: 140, width: 200, height: 200)])
        #expect(objects.first?.trackingID == nil && objects.first?.score == 0.7)
        #expect(localizer.orientations == [.right])
        // The classifier saw the box grown by 10 % on each side, normalized in the stored pixels, with the orientation.
        let seen = try #require(classifier.seen.first)
        #expect(abs(seen.0.x - 200.0 / 640) < 1e-12 && abs(seen.0.y - 120.0 / 480) < 1e-12)
        #expect(abs(seen.0.width - 240.0 / 640) < 1e-12 && abs(seen.0.height - 240.0 / 480) < 1e-12 && seen.1 == .right)
        #expect(objects.first?.labels.first?.categoryName == "at 312")
        #expect(session.lastLocalized == boxes)
    }

    @Test("single image, several objects: the confident boxes in the localizer's order, at most maxObjects")
    func singleSeveral() throws {
        let boxes = (0..<8).map { Self.box(Double($0) * 70, 10, 60, 60, 0.9 - Float($0) * 0.05) }
        let (session, _) = Self.session(.singleImage, max: 5, [boxes], classifier: nil)
        let objects = try session.process(Self.picture, orientation: .up, timestampMs: nil)
        #expect(objects.map(\.box.x) == [0, 70, 140, 210, 280])
        #expect(objects.allSatisfy { $0.labels.isEmpty && $0.trackingID == nil })
    }

    @Test(
        """
        stream: IDs once a track is confirmed (third frame), stable; labels reused from the cache until the \
        interval, then reclassified
        """
    )
    func streamIDsAndLabelCache() throws {
        let frames = (0..<10).map { i in
            [Self.box(100 + Double(i) * 3, 100, 80, 80, 0.9), Self.box(400, 300 - Double(i) * 2, 90, 60, 0.8)]
        }
        let classifier = ScriptedClassifier()
        let (session, _) = Self.session(.stream, max: 5, frames, classifier: classifier, interval: 4)
        var ids: [[Int?]] = []
        for (i, _) in frames.enumerated() {
            ids.append(try session.process(Self.picture, orientation: .up, timestampMs: i * 33).map(\.trackingID))
        }
        #expect(ids[0].isEmpty && ids[1].isEmpty)
        #expect(ids[2] == [0, 1] && ids.dropFirst(2).allSatisfy { $0 == [0, 1] })
        // Two tracks, classified at frames 3 and 7 (every 4 frames while the boxes barely move), and 11 is past the
        // end.
        #expect(session.classificationCount == 4)
        #expect(classifier.seen.count == 4)
    }

    @Test("stream: a box that jumps (IoU with the classified box below 0.6) is classified again at once")
    func reclassifyOnJump() throws {
        var frames = (0..<4).map { i in [Self.box(100 + Double(i), 100, 80, 80, 0.9)] }
        frames += (0..<3).map { i in [Self.box(140 + Double(i), 100, 80, 80, 0.9)] }  // a 40 px jump: IoU 0.33
        let (session, _) = Self.session(.stream, max: 5, frames)
        var counts: [Int] = []
        for i in frames.indices {
            _ = try session.process(Self.picture, orientation: .up, timestampMs: i * 33)
            counts.append(session.classificationCount)
        }
        #expect(counts == [0, 0, 1, 1, 2, 2, 2])
    }

    @Test(
        """
        stream, one object: the main track is kept while tracked even when another becomes more prominent; reset \
        gives new IDs
        """
    )
    func mainObjectAndReset() throws {
        let frames = (0..<6).map { i in
            [Self.box(50, 50, 60, 60, 0.9), Self.box(200, 150, 100 + Double(i) * 40, 100 + Double(i) * 30, 0.6)]
        }
        let (session, _) = Self.session(.stream, max: 1, frames, classifier: nil)
        var shown: [[Int?]] = []
        for i in frames.indices {
            shown.append(try session.process(Self.picture, orientation: .up, timestampMs: i * 33).map(\.trackingID))
        }
        #expect(shown[2].count == 1)
        let main = try #require(shown[2].first.flatMap { $0 })
        #expect(shown.dropFirst(2).allSatisfy { $0 == [main] })
        session.reset()
        var after: [[Int?]] = []
        for i in 0..<3 {
            after.append(
                try session.process(Self.picture, orientation: .up, timestampMs: 1000 + i * 33).map(\.trackingID))
        }
        #expect(after[2].count == 1 && (after[2].first ?? nil).map { $0 > main } == true)
    }

    @Test(
        """
        boxes in stored pixels map to the picture as shown exactly, for the 8 orientations (the preprocessor's \
        mapping inverted)
        """
    )
    func shownMapping() {
        let stored = TrackBox(x: 10, y: 2, width: 30, height: 40)  // in a 100×50 stored picture
        let expected: [ImageOrientation: TrackBox] = [
            .up: stored, .down: TrackBox(x: 60, y: 8, width: 30, height: 40),
            .upMirrored: TrackBox(x: 60, y: 2, width: 30, height: 40),
            .downMirrored: TrackBox(x: 10, y: 8, width: 30, height: 40),
        ]
        for (orientation, box) in expected {
            #expect(stored.shown(storedWidth: 100, storedHeight: 50, orientation: orientation) == box, "\(orientation)")
        }
        for orientation in ImageOrientation.allCases {
            let shown = stored.shown(storedWidth: 100, storedHeight: 50, orientation: orientation)
            let (sw, sh) = orientation.swapsDimensions ? (50.0, 100.0) : (100.0, 50.0)
            #expect(
                shown.x == shown.x.rounded() && shown.y == shown.y.rounded() && shown.area == stored.area,
                "\(orientation)")
            // Back through the shown-to-stored mapping: the stored box again.
            let m = ImagePreprocessor.mapping(
                width: 100, height: 50, orientation: orientation, roi: .full, dstWidth: 1, dstHeight: 1)
            let a = m.source(x: shown.x / sw, y: shown.y / sh),
                b = m.source(x: (shown.x + shown.width) / sw, y: (shown.y + shown.height) / sh)
            let back = TrackBox(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0), height: abs(a.1 - b.1))
            #expect(
                abs(back.x - stored.x) < 1e-9 && abs(back.y - stored.y) < 1e-9 && abs(back.width - stored.width) < 1e-9
                    && abs(back.height - stored.height) < 1e-9, "\(orientation): \(back)")
        }
    }
}
