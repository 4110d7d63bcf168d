import Foundation
import Imaging

extension FuzzSeeds {
    /// The small JPEG fixtures, a small PNG with and without alpha, and a small gray PNG.
    static func pictures() -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for folder in ["Tests/Fixtures/jpeg", "Tests/Fixtures/jpeg-damaged"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                if let bytes = file(folder + "/" + name) { seeds.append((name, bytes)) }
            }
        }
        if let rgb = try? Bitmap(width: 23, height: 17, format: .rgb8, fill: (200, 40, 90)), let png = try? ImageEncoder.png(rgb) { seeds.append(("rgb.png", png)) }
        if let rgba = try? Bitmap(width: 9, height: 31, format: .rgba8, fill: (10, 240, 90)), let png = try? ImageEncoder.png(rgba) { seeds.append(("rgba.png", png)) }
        return seeds
    }
}
