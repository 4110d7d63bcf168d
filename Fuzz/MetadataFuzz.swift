// libFuzzer target: the metadata readers on their own. The first byte picks the reader (TFLite
// metadata, detector metadata, FlexBuffer, zip, label file, score calibration); the rest is its input.
import Foundation
import TFLiteModel

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzSeeds.writeIfAsked(FuzzSeeds.metadata)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 6 {
    case 0: _ = try? ModelMetadata(flatBuffer: bytes)
    case 1: _ = try? DetectorMetadata(flatBuffer: bytes)
    case 2: _ = try? FlexBufferReader.parse(bytes)
    case 3:
        if let zip = try? ZipArchive(bytes: bytes) { for name in zip.names { _ = try? zip.contents(of: name) } }
    case 4: _ = try? LabelMap.parseLines(bytes)
    default: _ = try? ScoreCalibration(fileContents: bytes, transformation: .log, defaultScore: 0.5)
    }
    return 0
}
