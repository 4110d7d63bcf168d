/// Something a tracked object did at a line or a zone: crossed a line in or out, entered or left
/// a zone.
public struct ZoneEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// Crossed a line to its "in" side (see ``LineZone``).
        case crossedIn = "in"
        /// Crossed a line to its "out" side.
        case crossedOut = "out"
        /// Entered a zone.
        case entered = "enter"
        /// Was seen outside a zone it was in.
        case exited = "exit"
    }

    /// What happened.
    public var kind: Kind
    /// The line's or zone's name.
    public var name: String
    /// The object's tracking ID.
    public var trackingID: Int
    /// The object's class when it happened.
    public var className: String
    /// The frame's timestamp.
    public var timestampMs: Int
    /// For an exit, how long the visit lasted (first to last frame seen inside), in milliseconds.
    public var dwellMs: Int?

    /// An event of `kind` at line or zone `name`.
    public init(kind: Kind, name: String, trackingID: Int, className: String, timestampMs: Int, dwellMs: Int? = nil) {
        self.kind = kind
        self.name = name
        self.trackingID = trackingID
        self.className = className
        self.timestampMs = timestampMs
        self.dwellMs = dwellMs
    }
}
