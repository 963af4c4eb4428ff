/// A day of the week, Monday first (ISO 8601 numbering: Monday 1 … Sunday 7).
public enum Weekday: Int, CaseIterable, Hashable, Sendable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `Mon`: systemd's calendar spelling and the page's short day.
    public var short: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1] }
    /// `Monday`
    public var name: String { ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1] }
    /// cron's day-of-week field (Sunday 0, Monday 1 … Saturday 6).
    public var cronNumber: Int { rawValue % 7 }

    /// The weekday of `date`.
    public init(of date: CivilDate) {
        // 1970-01-01 was a Thursday (4).
        let index = Int(((date.daysSinceEpoch % 7) + 7 + 3) % 7)
        self = Weekday(rawValue: index + 1)!
    }
}

/// How often a reminder comes: every day, or once a week on one day, at its time.
public enum Recurrence: Hashable, Sendable {
    case daily
    case weekly(Weekday)

    /// Whether the reminder is due on `date` at all.
    public func includes(_ date: CivilDate) -> Bool {
        switch self {
        case .daily: return true
        case .weekly(let day): return Weekday(of: date) == day
        }
    }

    /// `every day`, `every Monday`.
    public var every: String {
        switch self {
        case .daily: return "every day"
        case .weekly(let day): return "every \(day.name)"
        }
    }

    /// `daily`, `weekly`.
    public var adjective: String {
        switch self {
        case .daily: return "daily"
        case .weekly: return "weekly"
        }
    }

    /// `daily`, `every Monday`.
    public var words: String {
        switch self {
        case .daily: return "daily"
        case .weekly(let day): return "every \(day.name)"
        }
    }
}
