extension ModelMetadata {
    /// Serializes this metadata as an "M001" flatbuffer (the `TFLITE_METADATA` entry of a model).
    package func flatBuffer() -> [UInt8] {
        var b = FlatBufferBuilder()
        let root = Self.write(self, &b)
        return b.finish(root, fileIdentifier: Self.fileIdentifier)
    }

    private static func write(_ m: ModelMetadata, _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset {
        let name = m.name.map { b.string($0) }
        let description = m.description.map { b.string($0) }
        let version = m.version.map { b.string($0) }
        let subgraphs = m.subgraphs.map { write($0, &b) }
        let subgraphVector = b.vector(subgraphs)
        let author = m.author.map { b.string($0) }
        let license = m.license.map { b.string($0) }
        let files = writeFiles(m.associatedFiles, &b)
        let minParser = m.minParserVersion.map { b.string($0) }
        b.startTable()
        if let name { b.add(0, name) }
        if let description { b.add(1, description) }
        if let version { b.add(2, version) }
        b.add(3, subgraphVector)
        if let author { b.add(4, author) }
        if let license { b.add(5, license) }
        if let files { b.add(6, files) }
        if let minParser { b.add(7, minParser) }
        return b.endTable()
    }

    private static func writeFiles(_ files: [AssociatedFile], _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset?
    {
        guard !files.isEmpty else { return nil }
        let offsets = files.map { f -> FlatBufferBuilder.Offset in
            let name = b.string(f.name)
            let description = f.description.map { b.string($0) }
            let locale = f.locale.map { b.string($0) }
            let version = f.version.map { b.string($0) }
            b.startTable()
            b.add(0, name)
            if let description { b.add(1, description) }
            b.add(2, f.type.rawValue)
            if let locale { b.add(3, locale) }
            if let version { b.add(4, version) }
            return b.endTable()
        }
        return b.vector(offsets)
    }

    private static func writeUnits(_ units: [ProcessUnit], _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset? {
        guard !units.isEmpty else { return nil }
        let offsets = units.map { u -> FlatBufferBuilder.Offset in
            var options: FlatBufferBuilder.Offset?
            switch u {
            case let .normalization(mean, std):
                let m = b.vector(mean)
                let s = b.vector(std)
                b.startTable(); b.add(0, m); b.add(1, s); options = b.endTable()
            case let .scoreCalibration(t, d):
                b.startTable(); b.add(0, t.rawValue); b.add(1, d); options = b.endTable()
            case let .scoreThresholding(t):
                b.startTable(); b.add(0, t); options = b.endTable()
            case .other:
                options = nil
            }
            b.startTable()
            b.add(0, u.typeCode)
            if let options { b.add(1, options) }
            return b.endTable()
        }
        return b.vector(offsets)
    }

    private static func write(_ t: TensorMetadata, _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset {
        let name = t.name.map { b.string($0) }
        let description = t.description.map { b.string($0) }
        var content: FlatBufferBuilder.Offset?
        if let c = t.content {
            var props: FlatBufferBuilder.Offset?
            switch c.properties {
            case .feature?:
                b.startTable(); props = b.endTable()
            case let .image(colorSpace, size)?:
                var sizeTable: FlatBufferBuilder.Offset?
                if let size { b.startTable(); b.add(0, size.width); b.add(1, size.height); sizeTable = b.endTable() }
                b.startTable(); b.add(0, colorSpace.rawValue); if let sizeTable { b.add(1, sizeTable) };
                props = b.endTable()
            case let .boundingBox(index, type, coordinateType)?:
                let idx = index.isEmpty ? nil : b.vector(index)
                b.startTable(); if let idx { b.add(0, idx) }; b.add(1, type.rawValue);
                b.add(2, coordinateType.rawValue); props = b.endTable()
            case let .audio(rate, channels)?:
                b.startTable(); b.add(0, rate); b.add(1, channels); props = b.endTable()
            case .other?, nil:
                props = nil
            }
            var range: FlatBufferBuilder.Offset?
            if let r = c.range { b.startTable(); b.add(0, r.lowerBound); b.add(1, r.upperBound); range = b.endTable() }
            b.startTable()
            if let p = c.properties, let props { b.add(0, p.typeCode); b.add(1, props) }
            if let range { b.add(2, range) }
            content = b.endTable()
        }
        let units = writeUnits(t.processUnits, &b)
        var stats: FlatBufferBuilder.Offset?
        if !t.statsMax.isEmpty || !t.statsMin.isEmpty {
            let mx = b.vector(t.statsMax)
            let mn = b.vector(t.statsMin)
            b.startTable(); b.add(0, mx); b.add(1, mn); stats = b.endTable()
        }
        let files = writeFiles(t.associatedFiles, &b)
        b.startTable()
        if let name { b.add(0, name) }
        if let description { b.add(1, description) }
        if let content { b.add(3, content) }
        if let units { b.add(4, units) }
        if let stats { b.add(5, stats) }
        if let files { b.add(6, files) }
        return b.endTable()
    }

    private static func writeGroups(_ groups: [TensorGroup], _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset?
    {
        guard !groups.isEmpty else { return nil }
        let offsets = groups.map { g -> FlatBufferBuilder.Offset in
            let name = g.name.map { b.string($0) }
            let names = b.vector(g.tensorNames.map { b.string($0) })
            b.startTable(); if let name { b.add(0, name) }; b.add(1, names)
            return b.endTable()
        }
        return b.vector(offsets)
    }

    private static func write(_ s: SubgraphMetadata, _ b: inout FlatBufferBuilder) -> FlatBufferBuilder.Offset {
        let name = s.name.map { b.string($0) }
        let description = s.description.map { b.string($0) }
        let inputs = b.vector(s.inputTensors.map { write($0, &b) })
        let outputs = b.vector(s.outputTensors.map { write($0, &b) })
        let files = writeFiles(s.associatedFiles, &b)
        let inUnits = writeUnits(s.inputProcessUnits, &b)
        let outUnits = writeUnits(s.outputProcessUnits, &b)
        let inGroups = writeGroups(s.inputTensorGroups, &b)
        let outGroups = writeGroups(s.outputTensorGroups, &b)
        var custom: FlatBufferBuilder.Offset?
        if !s.customMetadata.isEmpty {
            let items = s.customMetadata.map { c -> FlatBufferBuilder.Offset in
                let name = c.name.map { b.string($0) }
                let data = b.bytes(c.data, alignment: 16)
                b.startTable(); if let name { b.add(0, name) }; b.add(1, data)
                return b.endTable()
            }
            custom = b.vector(items)
        }
        b.startTable()
        if let name { b.add(0, name) }
        if let description { b.add(1, description) }
        b.add(2, inputs)
        b.add(3, outputs)
        if let files { b.add(4, files) }
        if let inUnits { b.add(5, inUnits) }
        if let outUnits { b.add(6, outUnits) }
        if let inGroups { b.add(7, inGroups) }
        if let outGroups { b.add(8, outGroups) }
        if let custom { b.add(9, custom) }
        return b.endTable()
    }
}
