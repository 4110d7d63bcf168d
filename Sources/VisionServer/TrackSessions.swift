import Foundation
import Locking
import VisionPipeline

/// The open `/v1/track/{session}` sessions: each a `track` task of its own (ML Kit's detector in
/// stream mode: its tracker carries objects and IDs from frame to frame), used by one request at a
/// time, ended when idle longer than the TTL or deleted; at most `capacity` open.
package final class TrackSessions: Sendable {
    /// One session: its task (made by the first frame's worker) and when it was last used.
    // @unchecked Sendable: `task`, `frames` and `lastTimestamp` are read and written only while
    // holding `lock` (one frame at a time); `key` is immutable.
    package final class Session: @unchecked Sendable {
        package let lock = NSLock()
        package let key: String
        package var task: TrackTask?
        package var frames = 0
        package var lastTimestamp: Int?

        package init(key: String) { self.key = key }
    }

    private struct Entry {
        var session: Session
        var lastUsed: UInt64
    }

    private let sessions = Locked([String: Entry]())
    private let capacity: Int
    private let ttl: UInt64

    package init(capacity: Int, ttlSeconds: Int) {
        self.capacity = capacity
        ttl = UInt64(ttlSeconds) * 1_000_000_000
    }

    /// Session ids: 1 to 64 letters, digits, `-` or `_`.
    package static func isValid(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95
            }
    }

    /// Session `id`, opened now when new. A session keeps the options it was opened with: a request
    /// with others is refused (409), as is a new session past the capacity (503).
    package func session(_ id: String, key: String) throws -> Session {
        let now = DispatchTime.now().uptimeNanoseconds
        return try sessions.withLock { sessions in
            if var entry = sessions[id] {
                guard entry.session.key == key else {
                    throw ServeError(
                        409,
                        "Session '\(id)' was opened with other options; DELETE /v1/track/\(id) first, or use another "
                            + "id."
                    )
                }
                entry.lastUsed = now
                sessions[id] = entry
                return entry.session
            }
            guard sessions.count < capacity else {
                throw ServeError(
                    503,
                    "\(capacity) tracking sessions are open (--max-sessions); end one with DELETE or wait for one to "
                        + "expire.",
                    reason: "sessions_full", headers: [("Retry-After", "1")])
            }
            let session = Session(key: key)
            sessions[id] = Entry(session: session, lastUsed: now)
            return session
        }
    }

    /// Ends session `id`; false when there was none.
    package func remove(_ id: String) -> Bool { sessions.withLock { $0.removeValue(forKey: id) != nil } }

    /// Ends the sessions idle longer than the TTL; returns how many.
    @discardableResult
    package func expire() -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        return sessions.withLock { sessions in
            let old = sessions.filter { now > $0.value.lastUsed && now - $0.value.lastUsed > ttl }.map(\.key)
            old.forEach { sessions[$0] = nil }
            return old.count
        }
    }

    /// Open sessions.
    package var count: Int { sessions.withLock { $0.count } }
}
