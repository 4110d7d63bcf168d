/// One object of a frame as lines and zones see it: its box in pixels, its track's ID (nil for an
/// object the tracker has not confirmed: it is drawn and occupies a zone, but never counted as a
/// crossing or a visit) and its class name.
public struct ZoneObject: Sendable, Hashable {
    /// The object's tracking ID (nil: counted, never followed).
    public var trackingID: Int?
    /// Its box in pixels.
    public var box: Box
    /// Its class, for per-class counts.
    public var className: String

    /// An object with `trackingID`, `box` and `className`.
    public init(trackingID: Int?, box: Box, className: String) {
        self.trackingID = trackingID
        self.box = box
        self.className = className
    }
}
