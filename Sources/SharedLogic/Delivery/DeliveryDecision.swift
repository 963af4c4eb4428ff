/// Whether `notif deliver` shows a reminder now: the saved settings are checked again (a stale
/// scheduler entry delivers nothing) and a reminder shows at most once per local day.
public enum DeliveryDecision: Equatable, Sendable {
    case deliver
    case skip(String)
    /// A scheduled run at another time than the reminder's (the run an entry has for the other
    /// half of the year): nothing to show and nothing to record.
    case notTheTime(String)

    /// How late a scheduled run may come and still be the reminder's time (cron starts jobs within
    /// seconds, a busy or just-resumed machine later). Shorter than the smallest gap between two
    /// runs of one entry (daylight-saving differences are 30 minutes or more), so of the runs a
    /// scheduler makes for the two halves of the year only the one at the reminder's time shows it.
    public static let onTimeWindow: Int64 = 30 * 60

    /// - Parameters:
    ///   - lastDelivered: the local day this reminder was last delivered, if ever.
    ///   - now/zone: the moment of the attempt, and the user's zone. A scheduled run delivers only
    ///   at the reminder's time in that zone (up to `onTimeWindow` late): a scheduler in another
    ///   zone has a run for each distance between the zones, and only one of them is the time.
    ///   A catch-up delivers any time after today's time. `kind` test is decided by `decideTest`.
    ///   - entrySince: when the scheduler's entry that asks was written, when it knows (nil: not
    ///   known, as for an entry of an earlier notif). A catch-up is for a run missed while the
    ///   entry existed: an entry written after today's time has missed nothing today.
    public static func decide(
        _ reminder: LocalReminder, kind: DeliveryKind, preferences: NotificationPreferences,
        lastDelivered: CivilDate?, now: Instant, zone: ZoneRules, entrySince: Instant? = nil
    ) -> DeliveryDecision {
        let today = zone.localDateTime(of: now).date
        let due = ReminderClock.fireInstant(of: reminder.time, on: today, in: zone)
        // First, so the runs meant for the other half of the year (or another day of the week
        // in the user's zone) leave no trace at all.
        if kind == .scheduled && !reminder.recurrence.includes(today) {
            return .notTheTime("not the reminder's day: \(Weekday(of: today).name) in \(zone.name), not \(reminder.recurrence.words)")
        }
        if kind == .scheduled && (now < due || now.seconds >= due.seconds + onTimeWindow) {
            return .notTheTime(notTheTime(reminder.time, local: zone.localDateTime(of: now), zone: zone))
        }
        if let reason = LocalReminders.blockReason(for: reminder, in: preferences) {
            return .skip(reason.message(for: reminder))
        }
        if deliveredAlready(on: today, lastDelivered: lastDelivered) { return .skip("already delivered today (\(today))") }
        if kind == .catchUp && !reminder.recurrence.includes(today) { return .skip("not due today (\(reminder.schedule))") }
        if kind == .catchUp && now < due { return .skip("not due yet today (due \(reminder.time))") }
        // A `since` on a later day than today was written while the clock was ahead: it says
        // nothing about today's run, and believing it would skip every catch-up until that day.
        if kind == .catchUp, let entrySince, zone.localDateTime(of: entrySince).date <= today, !existed(since: entrySince, at: due) {
            return .skip(turnedOnAfter(reminder.time, since: entrySince, zone: zone))
        }
        return .deliver
    }

    /// Whether an entry written at `since` was there for the run at `due`: only then can that run
    /// have been missed. An entry written at 14:00 first fires at the next day's 09:00, as a new
    /// cron line or a newly enabled systemd timer does.
    public static func existed(since: Instant, at due: Instant) -> Bool { since <= due }

    /// Why a catch-up of today's run shows nothing when the entry came after it
    /// (`turned on at 14:00 in Europe/Berlin, after today's 09:00: nothing was missed; the first reminder is the next 09:00`).
    static func turnedOnAfter(_ time: DailyTime, since: Instant, zone: ZoneRules) -> String {
        let local = zone.localDateTime(of: since)
        return "turned on at \(DailyTime(hour: local.hour, minute: local.minute)) in \(zone.name), after today's \(time): "
            + "nothing was missed; the first reminder is the next \(time)"
    }

    /// The once-a-day rule: a reminder already delivered on the local `day` is not shown again that day.
    public static func deliveredAlready(on day: CivilDate, lastDelivered: CivilDate?) -> Bool { lastDelivered == day }

    /// The next time `reminder` fires after `now` and would be shown: its time on a day its
    /// recurrence includes, past a local day on which it was already delivered (a changed zone can
    /// put today's time still ahead after today's delivery; that run would skip).
    public static func nextShowing(of reminder: LocalReminder, after now: Instant, lastDelivered: CivilDate?, zone: ZoneRules) -> Instant {
        var fire = ReminderClock.nextFire(of: reminder, after: now, in: zone)
        // One day at most is delivered already; the bound only keeps the loop total.
        for _ in 0..<2 where deliveredAlready(on: zone.localDateTime(of: fire).date, lastDelivered: lastDelivered) {
            fire = ReminderClock.nextFire(of: reminder, after: fire, in: zone)
        }
        return fire
    }

    /// Why a scheduled run at another time shows nothing (`08:00 in Europe/Berlin, not 09:00`).
    public static func notTheTime(_ time: DailyTime, local: LocalDateTime, zone: ZoneRules) -> String {
        "not the reminder's time: \(DailyTime(hour: local.hour, minute: local.minute)) in \(zone.name), not \(time)"
    }

    /// `notif test` shows a notification whatever the reminder toggles say, once notifications
    /// are allowed: not while the permission is Don't allow or Not decided.
    public static func decideTest(preferences: NotificationPreferences) -> DeliveryDecision {
        switch preferences.permission {
        case .granted: return .deliver
        case .denied: return .skip("permission is Don't allow")
        case .notDetermined: return .skip("permission is Not decided")
        }
    }
}
