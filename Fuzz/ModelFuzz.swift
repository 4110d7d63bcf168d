// libFuzzer target: a `.tflite` model through everything that reads one before LiteRT does —
// the FlatBuffer verifier, the model reader, the semantic verifier, TFLite and detector metadata,
// the appended zip, the SSD post-processing options and the hybrid-model rewrites. Any trap or sanitizer report is a bug.
import FileInput
import Foundation
import TFLiteModel

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzSeeds.writeIfAsked(FuzzSeeds.models)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard (try? FlatBufferVerifier.verifyModel(bytes)) != nil, let file = try? ModelFile(bytes: bytes) else { return 0 }
    // The in-memory rewrites run only on verified models (as ModelResources does); their output
    // must verify again.
    if (try? ModelVerifier.verify(file)) != nil {
        let kernels = ((try? file.customKernelOps([.hybridDepthwise, .quantizedConv, .hybridConv])) ?? nil).map { file.rewritten(head: $0.head).array }
        for rewritten in [kernels, (try? file.dequantizingHybridDepthwiseFilters()) ?? nil] {
            guard let rewritten else { continue }
            if (try? FlatBufferVerifier.verifyModel(rewritten)) == nil { fatalError("a rewrite produced an invalid FlatBuffer") }
        }
    }
    _ = try? file.modelMetadata()
    _ = try? file.associatedFiles()
    _ = try? file.detectionPostProcessOptions()
    if let custom = file.subgraphs.first.map({ _ in try? file.modelMetadata() }) ?? nil {
        for sg in custom.subgraphs { for c in sg.customMetadata { _ = try? DetectorMetadata(flatBuffer: c.data) } }
    }
    _ = file.operatorNames()
    return 0
}
