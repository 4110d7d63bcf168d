// libFuzzer target: JPEG and PNG decoding (libjpeg coefficients, stb-exact reconstruction, the reduced
// libjpeg-turbo decode, the PNG fast path and libpng),
// EXIF orientation, and the decoded picture through the preprocessing every task runs.
import Foundation
import Imaging

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzSeeds.writeIfAsked(FuzzSeeds.pictures)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPicture(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The fast (reduced) JPEG decode and the PNG decoders' both paths too.
    _ = try? JPEGDecoder.decodeReduced(bytes, minimumWidth: 16, minimumHeight: 16)
    _ = try? ImageDecoder.decodePNG(bytes, fast: false)
    guard let decoded = try? ImageDecoder.decode(bytes) else { return 0 }
    let format = TensorFormat(width: 32, height: 24, channels: 3, element: .uint8)
    var tensor = [UInt8](repeating: 0, count: 32 * 24 * 3)
    tensor.withUnsafeMutableBytes { buffer in
        _ = try? ImagePreprocessor().process(decoded.bitmap, orientation: decoded.orientation, region: .full, format: format, into: buffer)
    }
    return 0
}
