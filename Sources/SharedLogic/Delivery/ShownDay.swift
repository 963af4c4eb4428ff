/// The local day a reminder was last shown, and the moment (nil when an earlier notif recorded
/// the day alone): what makes "once per local day" hold.
public struct ShownDay: Equatable, Sendable {
    public var day: CivilDate
    public var at: Instant?

    public init(day: CivilDate, at: Instant? = nil) {
        self.day = day
        self.at = at
    }

    /// Whether the reminder of local `other` counts as shown, seen at `now`: it was shown on that
    /// day, or on a later day at a moment that has passed (a zone change put the clock back across
    /// midnight: that earlier day has had its reminder). A showing recorded for a later moment
    /// than `now` was made while the clock was ahead, and counts for its own day only.
    public func covers(_ other: CivilDate, now: Instant) -> Bool {
        if day == other { return true }
        guard let at, at <= now else { return false }
        return day > other
    }
}
