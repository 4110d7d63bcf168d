import Foundation
import Imaging

/// A Linux stand-in for UIKit's `UIImage`: decoded pixels plus the orientation they are shown with,
/// so that iOS code handing a `UIImage` to `MPImage(uiImage:)` or `VisionImage(image:)` compiles and runs.
public final class UIImage: Sendable {
    /// The stored pixels (not turned by the orientation).
    package let bitmap: Bitmap
    /// How the pixels are turned for display (from EXIF for decoded files).
    public let imageOrientation: Orientation
    /// Always 1 on Linux.
    public let scale: CGFloat = 1

    /// Decodes a JPEG or PNG file; nil when it cannot be read or decoded (as UIKit).
    public convenience init?(contentsOfFile path: String) {
        guard let decoded = try? ImageDecoder.decode(contentsOfFile: path) else { return nil }
        self.init(bitmap: decoded.bitmap, orientation: Orientation(decoded.orientation))
    }

    /// Decodes JPEG or PNG bytes; nil when they cannot be decoded (as UIKit).
    public convenience init?(data: Data) {
        guard let decoded = try? ImageDecoder.decode([UInt8](data)) else { return nil }
        self.init(bitmap: decoded.bitmap, orientation: Orientation(decoded.orientation))
    }

    /// Loads a picture by name, as UIKit finds bundle resources: a name without an extension with `.png`,
    /// `.jpg` and `.jpeg`, then as given (a name with one, only as given), looked up in the main bundle's
    /// resources, next to the executable and in the working directory; nil when none is found or decodes.
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        var folders: [String] = []
        if let resources = Bundle.main.resourcePath { folders.append(resources) }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent().path) }
        folders.append(FileManager.default.currentDirectoryPath)
        let names =
            (name as NSString).pathExtension.isEmpty ? [name + ".png", name + ".jpg", name + ".jpeg", name] : [name]
        for folder in folders {
            for candidate in names {
                let path = (folder as NSString).appendingPathComponent(candidate)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                if let decoded = try? ImageDecoder.decode(contentsOfFile: path) {
                    self.init(bitmap: decoded.bitmap, orientation: Orientation(decoded.orientation))
                    return
                }
            }
        }
        return nil
    }

    /// Wraps a `CGImage`, shown upright.
    public convenience init(cgImage: CGImage) {
        self.init(bitmap: cgImage.bitmap, orientation: .up)
    }

    /// Wraps a `CGImage` shown with `orientation` (`scale` must be 1 on Linux and is otherwise ignored).
    public convenience init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.init(bitmap: cgImage.bitmap, orientation: orientation)
    }

    /// Wraps RGB pixels — row by row from the top, three bytes (R, G, B) each, such as a video
    /// frame's `rgbPixels` — shown upright; nil when `rgbPixels` does not hold `width × height × 3`
    /// bytes or a side is outside 1…32768 (a Linux extension).
    public convenience init?(rgbPixels: [UInt8], width: Int, height: Int) {
        guard (1...32768).contains(width), (1...32768).contains(height), width * height * 3 == rgbPixels.count,
            let bitmap = try? Bitmap(width: width, height: height, format: .rgb8, pixels: rgbPixels)
        else { return nil }
        self.init(bitmap: bitmap, orientation: .up)
    }

    /// The stored pixels as a `CGImage` (never nil here).
    public var cgImage: CGImage? { CGImage(bitmap: bitmap) }

    /// Wraps pixels shown with `orientation`.
    package init(bitmap: Bitmap, orientation: Orientation = .up) {
        self.bitmap = bitmap
        self.imageOrientation = orientation
    }

    /// The size in points as shown (width and height swap for left/right orientations), as UIKit.
    public var size: CGSize {
        imageOrientation.swapsDimensions
            ? CGSize(width: bitmap.height, height: bitmap.width)
            : CGSize(width: bitmap.width, height: bitmap.height)
    }
}
