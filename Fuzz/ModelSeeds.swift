import TFLiteModel

extension FuzzSeeds {
    /// The shared models under 5 MB.
    static func models() -> [(String, [UInt8])] {
        smallModels.compactMap { name in file(assets + "/models/" + name).map { (name, $0) } }
    }

    /// Metadata, detector metadata, custom options, zips and label files of the shared models, each
    /// behind the selector byte MetadataFuzz reads.
    static func metadata() -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for (name, bytes) in models() {
            guard let model = try? ModelFile(bytes: bytes) else { continue }
            if let meta = try? model.metadataBuffer(named: ModelMetadata.entryName) {
                seeds.append(("\(name).metadata", [0] + meta))
                if let parsed = try? ModelMetadata(flatBuffer: meta) {
                    for sg in parsed.subgraphs { for c in sg.customMetadata { seeds.append(("\(name).detector", [1] + c.data)) } }
                }
            }
            for sg in model.subgraphs { for op in sg.operators { if let o = op.customOptions { seeds.append(("\(name).flex", [2] + o)) } } }
            if let zip = try? model.associatedFiles() {
                seeds.append(("\(name).zip", [3] + bytes))
                for file in zip.names.prefix(2) { if let c = try? zip.contents(of: file) { seeds.append(("\(name).\(file)", [4] + c)) } }
            }
        }
        seeds.append(("calibration", [5] + Array("1.0,2.0,-1.0\n\n0.5,1.5,0.2,0.1\n".utf8)))
        return seeds
    }
}
