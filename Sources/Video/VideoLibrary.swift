import CFFmpeg

/// FFmpeg's libraries, which reading and writing video need: opened at run time on first use, so a
/// program (or a server image) without them runs everything else.
package enum VideoLibrary {
    /// Nil when FFmpeg's libraries load; otherwise which one is missing and what to install.
    package static let unavailableReason: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard vt_video_available(&message, message.count) == 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
