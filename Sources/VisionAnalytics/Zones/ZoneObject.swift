/// One object of a frame as lines and zones see it: its box in pixels, its track's ID (nil for an
/// object the tracker has not confirmed: it is drawn and occupies a zone, but never counted as a
/// crossing or a visit) and its class name.
public struct ZoneObject: Sendable, Hashable {
    public var trackingID: Int?
    public var box: Box
    public var className: String

    public init(trackingID: Int?, box: Box, className: String) {
        self.trackingID = trackingID
        self.box = box
        self.className = className
    }
}
