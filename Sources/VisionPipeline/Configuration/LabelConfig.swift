/// `label`'s options, parsed once (ML Kit's image labeler).
package struct LabelConfig: Sendable {
    package var modelPath: String
    package var threshold: Float?
    package var maxResults: Int?
    package var threads = 1

    package init(modelPath: String) { self.modelPath = modelPath }
}
