/// The wall-clock times at which a scheduler that runs in one zone (cron in the system zone)
/// must start a daily reminder meant for another zone (the user's), so that one of them is the
/// reminder's time in the user's zone on every day: one time when the two zones keep the same
/// distance all year, two or more when their daylight-saving rules differ (Europe/Berlin seen
/// from UTC: 07:00 in summer, 08:00 in winter). `notif deliver` then shows the reminder only on
/// the run that is the reminder's time for the user, so the others do nothing.
public enum SchedulerTimes {
    /// How far ahead the zones' rules are looked at (about four years).
    public static let horizonDays: Int64 = 1461

    /// The distinct times in `schedulerZone` at which `time` in `userZone` happens from `start`
    /// to the horizon, in ascending order. Between two switches of either zone the distance
    /// between the zones is constant, so the first firing after each switch stands for all of
    /// its stretch.
    public static func times(of time: DailyTime, in userZone: ZoneRules, seenFrom schedulerZone: ZoneRules,
                             from start: Instant, horizonDays: Int64 = horizonDays) -> [DailyTime] {
        let end = start.seconds + horizonDays * 86_400
        let switches = userZone.switches(after: start.seconds, through: end) + schedulerZone.switches(after: start.seconds, through: end)
        var result = Set<DailyTime>()
        for point in [start.seconds] + switches {
            let fire = ReminderClock.nextFire(of: time, after: Instant(seconds: point - 1), in: userZone)
            guard fire.seconds <= end else { continue }
            let local = schedulerZone.localDateTime(of: fire)
            result.insert(DailyTime(hour: local.hour, minute: local.minute))
        }
        return result.sorted { ($0.hour, $0.minute) < ($1.hour, $1.minute) }
    }

    /// A wall-clock time in the scheduler's zone, and for a weekly reminder the day there.
    public struct Slot: Hashable, Sendable {
        public var time: DailyTime
        /// nil: every day.
        public var weekday: Weekday?
        public init(time: DailyTime, weekday: Weekday? = nil) {
            self.time = time
            self.weekday = weekday
        }
    }

    /// The distinct (day and) times in `schedulerZone` at which `reminder` happens in `userZone`
    /// from `start` to the horizon. A weekly reminder's day there may differ from its day for the
    /// user (Monday 02:00 in Tokyo is Sunday in UTC).
    public static func slots(of reminder: LocalReminder, in userZone: ZoneRules, seenFrom schedulerZone: ZoneRules,
                             from start: Instant, horizonDays: Int64 = horizonDays) -> [Slot] {
        guard case .weekly = reminder.recurrence else {
            return times(of: reminder.time, in: userZone, seenFrom: schedulerZone, from: start, horizonDays: horizonDays).map { Slot(time: $0) }
        }
        let end = start.seconds + horizonDays * 86_400
        let switches = userZone.switches(after: start.seconds, through: end) + schedulerZone.switches(after: start.seconds, through: end)
        var result = Set<Slot>()
        for point in [start.seconds] + switches {
            let fire = ReminderClock.nextFire(of: reminder, after: Instant(seconds: point - 1), in: userZone)
            guard fire.seconds <= end else { continue }
            let local = schedulerZone.localDateTime(of: fire)
            result.insert(Slot(time: DailyTime(hour: local.hour, minute: local.minute), weekday: Weekday(of: local.date)))
        }
        return result.sorted { ($0.weekday?.rawValue ?? 0, $0.time.hour, $0.time.minute) < ($1.weekday?.rawValue ?? 0, $1.time.hour, $1.time.minute) }
    }

    /// `07:00 and 08:00`, `03:30`, `01:00, 02:00 and 03:00`.
    public static func list(_ times: [DailyTime]) -> String {
        let words = times.map(\.description)
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
    }
}
