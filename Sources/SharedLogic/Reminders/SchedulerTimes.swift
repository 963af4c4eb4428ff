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
    /// between the zones is constant, so the firings right after each switch stand for all of
    /// its stretch: the first, and the one after it, since the first may be the switch day's,
    /// which a gap can move (a zone whose daylight time begins at 09:00 has its 09:00 skipped
    /// that day and fires at the gap's end, 10:00 daylight time, which is 09:00 standard time;
    /// the next day's 09:00 is the daylight half's). Where a gap skips the time, the firing is
    /// the gap's end, the first moment after the jump: it is a time of its own.
    public static func times(of time: DailyTime, in userZone: ZoneRules, seenFrom schedulerZone: ZoneRules,
                             from start: Instant, horizonDays: Int64 = horizonDays) -> [DailyTime] {
        Array(Set(firings(after: start, horizonDays: horizonDays, zones: [userZone, schedulerZone]) { point in
            ReminderClock.nextFire(of: time, after: point, in: userZone)
        }.map { instant in
            let local = schedulerZone.localDateTime(of: instant)
            return DailyTime(hour: local.hour, minute: local.minute)
        })).sorted { ($0.hour, $0.minute) < ($1.hour, $1.minute) }
    }

    /// The firings that stand for every stretch between two switches of `zones` from `start` to
    /// the horizon: for the start and each switch, the next firing (`next`, strictly after the
    /// instant it is given) and the one after that.
    static func firings(after start: Instant, horizonDays: Int64, zones: [ZoneRules], next: (Instant) -> Instant) -> [Instant] {
        let end = start.seconds + horizonDays * 86_400
        let switches = zones.flatMap { $0.switches(after: start.seconds, through: end) }
        var result: [Instant] = []
        for point in [start.seconds] + switches {
            let first = next(Instant(seconds: point - 1))
            for fire in [first, next(first)] where fire.seconds <= end { result.append(fire) }
        }
        return result
    }

    /// The moments up to the horizon at which `reminder` falls due at a daylight-saving gap's
    /// end: its time is left out of that day (08:30 becomes 09:30), so the first moment after
    /// the jump is its firing. systemd skips such a moment even as a calendar time of its own (it
    /// skips every wall time of the hour the gap moves, that day: measured with systemd 252), so
    /// a timer gets each one as a dated calendar in UTC.
    public static func gapEnds(of reminder: LocalReminder, in zone: ZoneRules, from start: Instant,
                               horizonDays: Int64 = horizonDays) -> [Instant] {
        zone.switches(after: start.seconds, through: start.seconds + horizonDays * 86_400).compactMap { change in
            let fire = ReminderClock.nextFire(of: reminder, after: Instant(seconds: change - 1), in: zone)
            let local = zone.localDateTime(of: fire)
            let onTime = local.hour == reminder.time.hour && local.minute == reminder.time.minute
            return fire.seconds == change && !onTime ? fire : nil
        }
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
        let fires = firings(after: start, horizonDays: horizonDays, zones: [userZone, schedulerZone]) { point in
            ReminderClock.nextFire(of: reminder, after: point, in: userZone)
        }
        let result = Set(fires.map { instant in
            let local = schedulerZone.localDateTime(of: instant)
            return Slot(time: DailyTime(hour: local.hour, minute: local.minute), weekday: Weekday(of: local.date))
        })
        return result.sorted { ($0.weekday?.rawValue ?? 0, $0.time.hour, $0.time.minute) < ($1.weekday?.rawValue ?? 0, $1.time.hour, $1.time.minute) }
    }

    /// How far ahead the days on which the scheduler's zone falls back are looked at: 28 years,
    /// a whole cycle of weekdays and leap years, so that a rule like "the last Sunday of
    /// October" yields every date it can fall on and the lines do not change from year to year.
    public static let fallBackHorizonDays: Int64 = 28 * 365 + 7

    /// The runs a cron daemon in `schedulerZone` needs on the days its clock falls back, when
    /// `time` in `userZone` comes while the clock repeats an hour. Debian's cron (like cronie)
    /// runs no fixed-time job in a repeated hour (up to 3 hours back), so the line for that
    /// time runs only at the first pass, which is not the user's time; only jobs with `*` in
    /// the minute or hour field run there. Each run is one minute after the user's time (in the
    /// window in which `notif deliver` shows a scheduled reminder), grouped by month into one
    /// line each: `1 * 25,26,27,28,29,30,31 10 *` for Europe/Berlin seen by a user in Asia/Shanghai.
    public static func repeatedHourRuns(of time: DailyTime, in userZone: ZoneRules, seenFrom schedulerZone: ZoneRules,
                                        from start: Instant, horizonDays: Int64 = fallBackHorizonDays) -> [RepeatedHourRun] {
        let end = start.seconds + horizonDays * 86_400
        var days: [RepeatedHourRun.Key: Set<Int>] = [:]
        for change in Set(schedulerZone.switches(after: start.seconds, through: end)) {
            let back = Int64(schedulerZone.offset(at: Instant(seconds: change - 1)) - schedulerZone.offset(at: Instant(seconds: change)))
            guard back > 0, back < 3 * 3_600 else { continue }   // larger jumps are clock corrections to cron
            let fire = ReminderClock.nextFire(of: time, after: Instant(seconds: change - 1), in: userZone)
            guard fire.seconds < change + back else { continue }
            let run = schedulerZone.localDateTime(of: Instant(seconds: fire.seconds + 60))
            days[RepeatedHourRun.Key(minute: run.minute, month: run.date.month), default: []].insert(run.date.day)
        }
        return days.map { RepeatedHourRun(minute: $0.key.minute, month: $0.key.month, days: $0.value.sorted()) }
            .sorted { ($0.month, $0.minute) < ($1.month, $1.minute) }
    }

    /// `07:00 and 08:00`, `03:30`, `01:00, 02:00 and 03:00`.
    public static func list(_ times: [DailyTime]) -> String {
        let words = times.map(\.description)
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
    }
}
