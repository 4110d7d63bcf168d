/// The app `vision-tasks serve` shows at `/`: the seeds' example apps in a browser — a Camera tab
/// (live detection, classification or ML Kit's tracked objects over the camera's picture), a Library
/// tab (a photo, or a video annotated and downloadable) and a settings sheet — one page, its styles
/// and script inline, nothing fetched from elsewhere.
enum ServeApp {
    static let html = ServeAppPage.text
}
