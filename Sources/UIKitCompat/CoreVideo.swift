import Foundation

/// Core Video pixel format codes (`OSType`).
public typealias OSType = UInt32
/// Core Video's result codes.
public typealias CVReturn = Int32
/// Core Video's image buffer type; on iOS a `CVPixelBuffer` is one.
public typealias CVImageBuffer = CVPixelBuffer
/// The dictionary type Core Foundation APIs take (`attributes as CFDictionary` compiles).
public typealias CFDictionary = NSDictionary

/// `kCVPixelFormatType_32BGRA`.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241  // 'BGRA'
/// `kCVPixelFormatType_32RGBA`.
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241  // 'RGBA'
/// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` (NV12, full range).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066  // '420f'
/// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` (NV12, video range).
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076  // '420v'
/// `kCVPixelFormatType_OneComponent32Float` (one 32-bit float per pixel).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066  // 'L00f'

/// Success.
public let kCVReturnSuccess: CVReturn = 0
/// An argument was invalid (a nil output pointer, an unlock without a lock).
public let kCVReturnInvalidArgument: CVReturn = -6661
/// The buffer could not be allocated.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The pixel format is not supported.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The size is not supported.
public let kCVReturnInvalidSize: CVReturn = -6681

/// `CVPixelBufferCreate`: a zero-filled buffer of a known format (32BGRA, 32RGBA, NV12 full or
/// video range, OneComponent32Float), rows padded to 64 bytes. Attributes are accepted and ignored.
@discardableResult
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard CVPixelBuffer.bytesPerPixel(pixelFormatType) != nil else { return kCVReturnInvalidPixelFormat }
    guard let buffer = CVPixelBuffer.make(width: width, height: height, pixelFormatType: pixelFormatType) else {
        return kCVReturnInvalidSize
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// `CVPixelBufferLockBaseAddress`.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ buffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    buffer.lockBase()
    return kCVReturnSuccess
}

/// `CVPixelBufferUnlockBaseAddress`: `kCVReturnInvalidArgument` without a matching lock.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ buffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    buffer.unlockBase() ? kCVReturnSuccess : kCVReturnInvalidArgument
}

/// `CVPixelBufferGetBaseAddress`: the first plane's bytes.
public func CVPixelBufferGetBaseAddress(_ buffer: CVPixelBuffer) -> UnsafeMutableRawPointer? { buffer.storage }
/// `CVPixelBufferGetWidth`.
public func CVPixelBufferGetWidth(_ buffer: CVPixelBuffer) -> Int { buffer.width }
/// `CVPixelBufferGetHeight`.
public func CVPixelBufferGetHeight(_ buffer: CVPixelBuffer) -> Int { buffer.height }
/// `CVPixelBufferGetPixelFormatType`.
public func CVPixelBufferGetPixelFormatType(_ buffer: CVPixelBuffer) -> OSType { buffer.pixelFormatType }
/// `CVPixelBufferGetBytesPerRow`: the first plane's stride.
public func CVPixelBufferGetBytesPerRow(_ buffer: CVPixelBuffer) -> Int { buffer.planes[0].bytesPerRow }
/// `CVPixelBufferGetDataSize`.
public func CVPixelBufferGetDataSize(_ buffer: CVPixelBuffer) -> Int { buffer.dataSize }
/// `CVPixelBufferIsPlanar`.
public func CVPixelBufferIsPlanar(_ buffer: CVPixelBuffer) -> Bool { buffer.isPlanar }
/// `CVPixelBufferGetPlaneCount`: 2 for NV12, 0 for packed formats (as Core Video).
public func CVPixelBufferGetPlaneCount(_ buffer: CVPixelBuffer) -> Int { buffer.isPlanar ? buffer.planes.count : 0 }

private func plane(_ buffer: CVPixelBuffer, _ index: Int) -> CVPixelBuffer.Plane? {
    buffer.isPlanar && buffer.planes.indices.contains(index) ? buffer.planes[index] : nil
}

/// `CVPixelBufferGetBaseAddressOfPlane`: nil for a packed buffer or a plane that does not exist.
public func CVPixelBufferGetBaseAddressOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    plane(buffer, planeIndex).map { buffer.storage + $0.offset }
}
/// `CVPixelBufferGetBytesPerRowOfPlane`: 0 when the plane does not exist.
public func CVPixelBufferGetBytesPerRowOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(buffer, planeIndex)?.bytesPerRow ?? 0
}
/// `CVPixelBufferGetWidthOfPlane`: 0 when the plane does not exist.
public func CVPixelBufferGetWidthOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(buffer, planeIndex)?.width ?? 0
}
/// `CVPixelBufferGetHeightOfPlane`: 0 when the plane does not exist.
public func CVPixelBufferGetHeightOfPlane(_ buffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(buffer, planeIndex)?.height ?? 0
}
