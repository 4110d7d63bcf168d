import Foundation
import Imaging

// @unchecked Sendable: the size, format and planes are immutable; the lock count and the cached
// copy are read and written only under `lock`; the pixel memory is written only by its owner between
// `CVPixelBufferLockBaseAddress` and `CVPixelBufferUnlockBaseAddress` — Core Video's own contract —
// and a lock drops the cached copy, so readers never see a half-written frame through it.
/// A Linux stand-in for Core Video's `CVPixelBuffer`: a frame in BGRA, RGBA, NV12 (bi-planar 4:2:0)
/// or one-component 32-bit float layout, in memory it owns, with row strides, as a camera or video
/// decoder hands it over. Create one with ``CVPixelBufferCreate(_:_:_:_:_:_:)`` and fill it through
/// ``CVPixelBufferGetBaseAddress(_:)`` between lock and unlock, as on iOS, or wrap bytes you have.
public final class CVPixelBuffer: @unchecked Sendable {
    /// One plane of the buffer: where it starts, its stride and its size in samples.
    struct Plane {
        let offset: Int
        let bytesPerRow: Int
        let width: Int
        let height: Int
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The Core Video format code.
    public let pixelFormatType: OSType
    /// Bytes owned by the buffer.
    public let dataSize: Int
    let planes: [Plane]
    let storage: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var lockCount = 0
    /// The pixels as a `Bitmap`, kept while nobody can write the memory (dropped at each lock of
    /// the base address), so that a frame is copied out at most once.
    private var cachedBitmap: Bitmap?

    private init(width: Int, height: Int, pixelFormatType: OSType, planes: [Plane], dataSize: Int) {
        self.width = width
        self.height = height
        self.pixelFormatType = pixelFormatType
        self.planes = planes
        self.dataSize = dataSize
        storage = UnsafeMutableRawPointer.allocate(byteCount: max(dataSize, 1), alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(dataSize, 1))
    }

    deinit { storage.deallocate() }

    /// Bytes per pixel of the first plane, or nil for a format this stand-in does not know.
    static func bytesPerPixel(_ format: OSType) -> Int? {
        switch format {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32RGBA, kCVPixelFormatType_OneComponent32Float: return 4
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: return 1
        default: return nil
        }
    }

    /// A zero-filled buffer with rows padded to 64 bytes, as `CVPixelBufferCreate` makes it; nil for
    /// an unknown format or a size outside 1…32768 (odd sizes are refused for NV12).
    static func make(width: Int, height: Int, pixelFormatType: OSType) -> CVPixelBuffer? {
        guard let bpp = bytesPerPixel(pixelFormatType), (1...32768).contains(width), (1...32768).contains(height) else {
            return nil
        }
        let stride = (width * bpp + 63) / 64 * 64
        if bpp == 1 {
            guard width % 2 == 0, height % 2 == 0 else { return nil }
            let luma = Plane(offset: 0, bytesPerRow: stride, width: width, height: height)
            let chroma = Plane(offset: stride * height, bytesPerRow: stride, width: width / 2, height: height / 2)
            return CVPixelBuffer(
                width: width, height: height, pixelFormatType: pixelFormatType, planes: [luma, chroma],
                dataSize: stride * height + stride * height / 2)
        }
        return CVPixelBuffer(
            width: width, height: height, pixelFormatType: pixelFormatType,
            planes: [Plane(offset: 0, bytesPerRow: stride, width: width, height: height)], dataSize: stride * height)
    }

    /// Copies pixel bytes into a new buffer. BGRA/RGBA/float: `bytesPerRow` defaults to width × 4.
    /// NV12: a Y plane then an interleaved CbCr plane (`chromaOffset` defaults to right after the Y plane).
    public convenience init(
        width: Int, height: Int, pixelFormatType: OSType, bytes: [UInt8], bytesPerRow: Int? = nil,
        chromaOffset: Int? = nil, chromaBytesPerRow: Int? = nil
    ) throws {
        let format: PixelFormat
        switch pixelFormatType {
        case kCVPixelFormatType_32BGRA: format = .bgra8
        case kCVPixelFormatType_32RGBA, kCVPixelFormatType_OneComponent32Float: format = .rgba8  // 4 bytes a pixel
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange:
            format = .nv12
        default:
            throw ImagingError(
                .invalidPixelData,
                "Unsupported pixel format \(String(format: "0x%08x", pixelFormatType)); use 32BGRA, 32RGBA, "
                    + "420YpCbCr8BiPlanar or OneComponent32Float."
            )
        }
        // Validates sizes, strides and byte count.
        let source = try Bitmap(
            width: width, height: height, format: format, pixels: bytes, bytesPerRow: bytesPerRow,
            chromaOffset: chromaOffset, chromaBytesPerRow: chromaBytesPerRow)
        var planes = [Plane(offset: 0, bytesPerRow: source.bytesPerRow, width: width, height: height)]
        var size = source.bytesPerRow * height
        if format == .nv12 {
            planes.append(
                Plane(offset: size, bytesPerRow: source.chromaBytesPerRow, width: width / 2, height: height / 2))
            size += source.chromaBytesPerRow * height / 2
        }
        self.init(width: width, height: height, pixelFormatType: pixelFormatType, planes: planes, dataSize: size)
        let rowBytes = width * format.bytesPerPixel
        source.pixels.withUnsafeBytes { src in
            guard let base = src.baseAddress else { return }
            for y in 0..<height {
                (storage + y * source.bytesPerRow).copyMemory(from: base + y * source.bytesPerRow, byteCount: rowBytes)
            }
            if format == .nv12 {
                for y in 0..<(height / 2) {
                    (storage + planes[1].offset + y * source.chromaBytesPerRow)
                        .copyMemory(from: base + source.chromaOffset + y * source.chromaBytesPerRow, byteCount: width)
                }
            }
        }
        // The caller's bytes are the pixels, in the same layout: no copy back out is needed.
        if !isFloat { cachedBitmap = source }
    }

    /// True for video-range (16…235) NV12.
    public var isVideoRange: Bool { pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange }
    /// True for one-component 32-bit float buffers (depth maps, masks).
    public var isFloat: Bool { pixelFormatType == kCVPixelFormatType_OneComponent32Float }
    /// True for NV12.
    public var isPlanar: Bool { planes.count > 1 }

    /// The 8-bit pixels (BGRA, RGBA or NV12, strides kept), copied out of the buffer once until its
    /// base address is next locked. Float buffers are rendered as gray, each value × 255 clamped to
    /// 0…255 (tasks refuse float buffers, as MediaPipe does).
    package var bitmap: Bitmap {
        get throws {
            lock.lock()
            defer { lock.unlock() }
            if let cachedBitmap { return cachedBitmap }
            let made = try copiedBitmap()
            if lockCount == 0 { cachedBitmap = made }
            return made
        }
    }

    private func copiedBitmap() throws -> Bitmap {
        if isFloat {
            var gray = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                let row = (storage + y * planes[0].bytesPerRow).assumingMemoryBound(to: Float.self)
                for x in 0..<width {
                    let v = row[x] * 255
                    gray[y * width + x] = v.isNaN ? 0 : UInt8(max(0, min(255, v.rounded())))
                }
            }
            return try Bitmap(width: width, height: height, format: .gray8, pixels: gray)
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: storage, count: dataSize))
        let format: PixelFormat =
            pixelFormatType == kCVPixelFormatType_32BGRA
            ? .bgra8 : pixelFormatType == kCVPixelFormatType_32RGBA ? .rgba8 : .nv12
        return try Bitmap(
            width: width, height: height, format: format, pixels: bytes, bytesPerRow: planes[0].bytesPerRow,
            chromaOffset: isPlanar ? planes[1].offset : nil, chromaBytesPerRow: isPlanar ? planes[1].bytesPerRow : nil)
    }

    func lockBase() { lock.lock(); lockCount += 1; cachedBitmap = nil; lock.unlock() }
    func unlockBase() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard lockCount > 0 else { return false }
        lockCount -= 1
        return true
    }
}
