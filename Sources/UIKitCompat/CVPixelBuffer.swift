import Foundation
import Imaging

/// Core Video pixel format codes (`OSType`).
public typealias OSType = UInt32

/// `kCVPixelFormatType_32BGRA`.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241  // 'BGRA'
/// `kCVPixelFormatType_32RGBA`.
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241  // 'RGBA'
/// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` (NV12, full range).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066  // '420f'
/// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` (NV12, video range).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076  // '420v'

/// A Linux stand-in for Core Video's `CVPixelBuffer`: a frame in BGRA, RGBA or NV12 layout, with row
/// strides, as a camera or video decoder hands it over.
public final class CVPixelBuffer: @unchecked Sendable {
    /// The pixels. For video-range NV12 the bytes are stored as given; `MPImage` expands them.
    public let bitmap: Bitmap
    /// The Core Video format code.
    public let pixelFormatType: OSType

    /// Wraps pixel bytes. BGRA/RGBA: `bytesPerRow` defaults to width × 4. NV12: a Y plane then an
    /// interleaved CbCr plane (`chromaOffset` defaults to right after the Y plane).
    public init(width: Int, height: Int, pixelFormatType: OSType, bytes: [UInt8], bytesPerRow: Int? = nil,
                chromaOffset: Int? = nil, chromaBytesPerRow: Int? = nil) throws {
        let format: PixelFormat
        switch pixelFormatType {
        case kCVPixelFormatType_32BGRA: format = .bgra8
        case kCVPixelFormatType_32RGBA: format = .rgba8
        case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: format = .nv12
        default:
            throw ImagingError(.invalidPixelData, "Unsupported pixel format \(String(format: "0x%08x", pixelFormatType)); use 32BGRA, 32RGBA or 420YpCbCr8BiPlanar.")
        }
        bitmap = try Bitmap(width: width, height: height, format: format, pixels: bytes, bytesPerRow: bytesPerRow,
                            chromaOffset: chromaOffset, chromaBytesPerRow: chromaBytesPerRow)
        self.pixelFormatType = pixelFormatType
    }

    /// True for video-range (16…235) NV12.
    public var isVideoRange: Bool { pixelFormatType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange }
}

/// `CVPixelBufferGetWidth`.
public func CVPixelBufferGetWidth(_ buffer: CVPixelBuffer) -> Int { buffer.bitmap.width }
/// `CVPixelBufferGetHeight`.
public func CVPixelBufferGetHeight(_ buffer: CVPixelBuffer) -> Int { buffer.bitmap.height }
/// `CVPixelBufferGetPixelFormatType`.
public func CVPixelBufferGetPixelFormatType(_ buffer: CVPixelBuffer) -> OSType { buffer.pixelFormatType }
/// `CVPixelBufferGetBytesPerRow`.
public func CVPixelBufferGetBytesPerRow(_ buffer: CVPixelBuffer) -> Int { buffer.bitmap.bytesPerRow }
