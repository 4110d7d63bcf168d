import Foundation
import VisionPipeline

/// The app `vision-tasks serve` shows at `/`: the seeds' example apps in a browser — a Camera tab
/// (live detection, classification or ML Kit's tracked objects over the camera's picture), a Library
/// tab (a photo, or a video annotated and downloadable) and a settings sheet — one page
/// (`Resources/app.html`), its styles and script inline, nothing fetched from elsewhere.
package enum ServeApp {
    /// The page, read once from the target's resources.
    package static let html: String? = Bundle.module.url(forResource: "app", withExtension: "html").flatMap {
        try? String(contentsOf: $0, encoding: .utf8)
    }
}
