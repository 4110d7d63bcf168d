/// Class labels read from a model's label files: names from the first file of the right type,
/// display names from the file whose locale matches exactly (MediaPipe's rules).
package struct LabelMap: Equatable, Sendable {
    /// Label `i` is the name of class `i`.
    package var names: [String]
    /// Display names in the requested locale, when a file for it exists.
    package var displayNames: [String]?

    package init(names: [String], displayNames: [String]? = nil) {
        self.names = names
        self.displayNames = displayNames
    }

    /// Splits a label file into lines: one label per line, `\r\n` accepted, a single trailing
    /// empty line dropped. An empty file is an error ("Expected non-empty labels file.").
    package static func parseLines(_ bytes: [UInt8]) throws -> [String] {
        if bytes.isEmpty { throw TFLiteModelError(.invalidAssociatedFile, "Expected non-empty labels file.") }
        var body = bytes[...]
        if body.last == 0x0A { body = body.dropLast() }
        return body.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
    }

    /// Builds the labels of `tensor` from files of `type` in `archive`; display names come from the
    /// file of that type whose locale is exactly `locale`.
    package static func load(
        tensor: ModelMetadata.TensorMetadata, type: ModelMetadata.AssociatedFileType,
        locale: String?, archive: ZipArchive?
    ) throws -> LabelMap? {
        guard let first = tensor.firstAssociatedFile(ofType: type) else { return nil }
        guard let archive else {
            throw TFLiteModelError(.associatedFileNotFound, "No associated file with name: \(first.name)")
        }
        let names = try parseLines(try archive.contents(of: first.name))
        var display: [String]?
        if let locale, !locale.isEmpty, let file = tensor.firstAssociatedFile(ofType: type, locale: locale) {
            let lines = try parseLines(try archive.contents(of: file.name))
            guard lines.count == names.count else {
                throw TFLiteModelError(
                    .invalidAssociatedFile,
                    "Mismatch between number of labels (\(names.count)) and display names (\(lines.count)).")
            }
            display = lines
        }
        return LabelMap(names: names, displayNames: display)
    }
}
