/// When a scheduler runs an installed entry, as that scheduler counts time, read back from the
/// entry and typed. `FiringWords` puts it into words; nothing else does.
public struct EntryFiring: Equatable, Sendable {
    /// The scheduler's own times for the entry.
    public var schedule: Schedule
    /// The entry's reminder at its time in the zone notif shows; nil when the entry names no
    /// reminder notif knows, or its scheduler is not compared with it (built-in entries keep the zone).
    public var wanted: WantedTime?
    /// The entry is an untagged one of an earlier notif, which `notif apply` replaces.
    public var earlierNotif: Bool

    public init(_ schedule: Schedule, wanted: WantedTime? = nil, earlierNotif: Bool = false) {
        self.schedule = schedule
        self.wanted = wanted
        self.earlierNotif = earlierNotif
    }

    /// The scheduler that holds the entry.
    public var scheduler: SchedulerKind {
        switch schedule {
        case .cron: return .cron
        case .systemd: return .systemd
        case .embedded: return .embedded
        }
    }

    /// The times a scheduler starts the entry, in its own terms.
    public enum Schedule: Equatable, Sendable {
        /// cron's daily lines at `times` in the system zone (named `systemZone`): `matchesWanted`
        /// when they are exactly the system-zone times of the wanted time, `hourlyOnFallBack` when
        /// there are also hourly lines for the days the system clock repeats that hour.
        case cron(times: [DailyTime], systemZone: String, matchesWanted: Bool, hourlyOnFallBack: Bool)
        /// A systemd timer's `OnCalendar=` values; those without a zone count in the user
        /// manager's zone (named `managerZone`).
        case systemd(calendars: [SystemdCalendar], managerZone: String)
        /// A built-in entry at `time` (on `weekday` only, when set) in `zone`, or in the daemon's
        /// zone (its TZ, else the system zone) when nil.
        case embedded(time: DailyTime, weekday: Weekday?, zone: String?)
    }
}

/// A reminder's time in the zone notif shows the user (its name).
public struct WantedTime: Equatable, Sendable {
    public var time: DailyTime
    public var zone: String

    public init(time: DailyTime, zone: String) {
        self.time = time
        self.zone = zone
    }
}

/// One `OnCalendar=` value of a systemd timer: the calendar (`*-*-* 09:00:00`,
/// `Mon *-*-* 10:00:00`) and the zone it names, if any (`Asia/Kolkata`).
public struct SystemdCalendar: Equatable, Sendable {
    public var calendar: String
    public var zone: String?

    public init(calendar: String, zone: String? = nil) {
        self.calendar = calendar
        self.zone = zone
    }

    /// Reads an `OnCalendar=` value: a last word without a `:` (not a time) is its zone.
    public init(parsing value: String) {
        let words = value.split(separator: " ", omittingEmptySubsequences: false)
        if words.count > 1, let last = words.last, !last.isEmpty, !last.contains(":") {
            self.init(calendar: words.dropLast().joined(separator: " "), zone: String(last))
        } else {
            self.init(calendar: value)
        }
    }
}
