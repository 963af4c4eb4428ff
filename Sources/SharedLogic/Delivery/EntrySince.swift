/// When a reminder's scheduler entry began: `apply` records it when it installs an entry for a
/// reminder that had none there (turned on, or moved to another scheduler), the same for every
/// scheduler. Both facts are kept: the instant, and the user's wall-clock reading then (in the
/// zone notif showed: `TZ`, else the system zone), as one ISO 8601 text with its offset
/// (`2026-12-01T08:45:00+01:00`).
///
/// `deliver` shows the reminder of a day only when its entry was there before that day's time
/// came: turned on at 14:00, the first reminder is the next day's 09:00, whatever wakes notif in
/// between (a cron `@reboot` line, a login, a clock jump).
public struct EntrySince: Equatable, Sendable {
    public var instant: Instant
    /// The wall clock's reading at `instant`, in the zone of the run that wrote the entry.
    public var wall: LocalDateTime

    public init(instant: Instant, wall: LocalDateTime) {
        self.instant = instant
        self.wall = wall
    }

    /// Written now, in `zone`.
    public init(instant: Instant, zone: ZoneRules) {
        self.init(instant: instant, wall: zone.localDateTime(of: instant))
    }

    /// `2026-12-01T08:45:00+01:00`.
    public var text: String {
        ISO8601.format(instant, offset: Int(clamping: TimeArithmetic.add(wall.secondsSinceEpoch, -instant.seconds)))
    }

    /// Reads `text`; nil when it is not ISO 8601 with an offset.
    public init?(text: String) {
        guard let (instant, wall) = ISO8601.parseLocal(text) else { return nil }
        self.init(instant: instant, wall: wall)
    }

    /// Whether the entry was there before `time` came on `day`, seen in `zone` (the
    /// zone notif shows now). "Came" is the first moment the clock read `time` or later that day,
    /// so after a jump over it (a DST gap, a zone change, a resume) it is the moment of the jump.
    ///
    /// Either fact is enough. The reading then was before `time` on `day` (or on an earlier day):
    /// a zone changed since cannot make an entry written at 08:45 look written at 09:15. Or the
    /// instant is before `time` on `day` in today's zone: a change the other way (the clock put
    /// back from 09:20 to 08:50) brings a 09:00 that really came after an entry written at 09:15.
    /// A record of a later day than `day` was written while the clock was ahead: it says
    /// nothing, and the entry counts as there.
    public func existed(before time: DailyTime, on day: CivilDate, zone: ZoneRules) -> Bool {
        if wall.date > day && zone.localDateTime(of: instant).date > day { return true }
        if wall <= LocalDateTime(date: day, hour: time.hour, minute: time.minute) { return true }
        return instant <= ReminderClock.fireInstant(of: time, on: day, in: zone)
    }
}
