/// `--live SOURCE`, parsed once: the camera, stream or file played in real time.
package struct LiveConfig: Sendable {
    package var source: String

    package init(source: String) { self.source = source }

}
