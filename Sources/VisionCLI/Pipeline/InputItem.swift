/// One thing to process: a picture or a video file.
struct InputItem: Equatable {
    enum Kind: Equatable {
        case picture
        case video
    }

    /// The path as given or found (the record's `source`).
    let path: String
    /// The path under the folder it was found in (the file name for files given directly): the
    /// annotated output's name under `--output DIR`.
    let relativePath: String
    let kind: Kind
}
