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

    /// `07:00 and 08:00`, `03:30`, `01:00, 02:00 and 03:00`.
    public static func list(_ times: [DailyTime]) -> String {
        let words = times.map(\.description)
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
    }
}
