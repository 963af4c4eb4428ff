/// When a daily reminder fires next, in floating local time: 09:00 on the wall clock of the
/// zone in effect, whatever the UTC offset that day (DST never moves it off 09:00).
public enum ReminderClock {
    /// The first firing strictly after `now`. A time skipped by a DST gap fires at the end of the gap.
    public static func nextFire(of time: DailyTime, after now: Instant, in zone: ZoneRules) -> Instant {
        let today = zone.localDateTime(of: now).date
        for offset in 0...2 {
            let candidate = fireInstant(of: time, on: today.adding(days: offset), in: zone)
            if candidate > now { return candidate }
        }
        // Unreachable for real zones (a day is never 48 hours long), but stay total.
        return fireInstant(of: time, on: today.adding(days: 3), in: zone)
    }

    /// The first firing of `reminder` strictly after `now`, on a day its recurrence includes.
    public static func nextFire(of reminder: LocalReminder, after now: Instant, in zone: ZoneRules) -> Instant {
        nextFire(of: reminder.time, recurrence: reminder.recurrence, after: now, in: zone)
    }

    /// The first firing of `time` strictly after `now` on a day `recurrence` includes.
    public static func nextFire(of time: DailyTime, recurrence: Recurrence, after now: Instant, in zone: ZoneRules) -> Instant {
        let today = zone.localDateTime(of: now).date
        for offset in 0...9 where recurrence.includes(today.adding(days: offset)) {
            let candidate = fireInstant(of: time, on: today.adding(days: offset), in: zone)
            if candidate > now { return candidate }
        }
        return nextFire(of: time, after: now, in: zone)
    }

    /// The instant `time` happens on `day`.
    public static func fireInstant(of time: DailyTime, on day: CivilDate, in zone: ZoneRules) -> Instant {
        zone.resolve(LocalDateTime(date: day, hour: time.hour, minute: time.minute))
    }
}
