/// One thing to process: a picture or a video file.
package struct InputItem: Equatable {
    package enum Kind: Equatable {
        case picture
        case video
    }

    /// The path as given or found (the record's `source`).
    package let path: String
    /// The path under the folder it was found in (the file name for files given directly): the
    /// annotated output's name under `--output DIR`.
    package let relativePath: String
    package let kind: Kind
}
