import Foundation
import MediaPipeTasksVision

/// `SeedApp PHOTO... [--video FILE]`: runs seeds 000, 001, 003 and 004 on the photos, checks the
/// concurrency forms, times `detect`, and prints JSON lines.
@main
struct SeedApp {
    static func main() async {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            var video: String?
            if let i = arguments.firstIndex(of: "--video"), i + 1 < arguments.count {
                video = arguments[i + 1]
                arguments.removeSubrange(i...(i + 1))
            }
            let photos = arguments
            guard !photos.isEmpty else { throw AppError("usage: SeedApp PHOTO... [--video FILE]") }
            let seed000 = try Seed000.imageMode(photos: photos)
            let seed004 = try Seed004.labels(photos: photos)
            for line in seed000 + (try Seed001.imageMode(photos: photos)) + (try Seed003.singleImage(photos: photos))
                + seed004
            {
                print(try JSON.text(line))
            }
            print(
                try JSON.text(
                    try await Concurrency.check(
                        photos: photos, expected000: seed000, expected004: seed004, video: video)))
            print(try JSON.text(["seed": "timing", "detect_ms": try detectMilliseconds(photos[0])]))
        } catch {
            FileHandle.standardError.write(Data("SeedApp: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The median time of `detect(image:)` (SSD MobileNet v1, one thread) over 15 calls after 3.
    static func detectMilliseconds(_ photo: String) throws -> Double {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = Bundle.module.path(forResource: "model", ofType: "tflite")
        let objectDetector = try ObjectDetector(options: options)
        guard let uiImage = UIImage(contentsOfFile: photo) else { throw AppError("cannot read \(photo)") }
        let image = try MPImage(uiImage: uiImage)
        var times: [Double] = []
        for i in 0..<18 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try objectDetector.detect(image: image)
            if i >= 3 { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
        }
        return times.sorted()[times.count / 2]
    }
}
