/// Whether `notif deliver` shows a reminder now. One rule, whichever scheduler or run wakes
/// notif (a cron line, a systemd timer or its catch-up, cron's `@reboot` line, `notif daemon`, a
/// login): the reminder of local day D (in the zone notif shows) is due from the first moment
/// the clock reads its time (09:00) or later on D until D ends, and is shown once in that window.
/// A wake outside it, or after D's reminder was shown, is not an attempt at all.
public enum DeliveryDecision: Equatable, Sendable {
    case deliver
    /// Due, but the saved settings do not allow it (an entry left behind): recorded.
    case skip(String)
    /// Nothing to do and nothing to record.
    case notDue(NotDue)

    /// Why a wake is no attempt.
    public enum NotDue: Equatable, Sendable {
        /// A weekly reminder on another day of the week.
        case notTheDay(Weekday, zone: String, recurrence: String)
        /// The clock reads before the reminder's time today (`local`: the reading now).
        case beforeTime(DailyTime, local: LocalDateTime, zone: String)
        /// Shown already on this local day.
        case shownToday(CivilDate)
        /// Another run's waiter is waiting for a notification service to show it.
        case waiting
        /// Its entry began after today's time had come (`since`: the reading then).
        case entryAfterTime(DailyTime, since: LocalDateTime, zone: String)

        /// In words (`not due yet: 08:50 in Europe/Berlin, before 09:00`).
        public var message: String {
            switch self {
            case .notTheDay(let day, let zone, let recurrence):
                return "not the reminder's day: \(day.name) in \(zone), not \(recurrence)"
            case .beforeTime(let time, let local, let zone):
                return "not due yet: \(DailyTime(hour: local.hour, minute: local.minute)) in \(zone), before \(time)"
            case .shownToday(let day):
                return "already sent today (\(day))"
            case .waiting:
                return "a waiter already waits for a notification service to send it today's reminder"
            case .entryAfterTime(let time, let since, let zone):
                return "turned on at \(DailyTime(hour: since.hour, minute: since.minute)) in \(zone), after today's \(time): nothing was missed; the first reminder is the next \(time)"
            }
        }
    }

    /// - Parameters:
    ///   - now/zone: the moment of the wake and the user's zone (`TZ`, else the system zone).
    ///   - shown: the local day it was last shown, if ever.
    ///   - entrySince: when its scheduler entry began, as `apply` recorded it (nil: not known, as
    ///     for an entry of an earlier notif; it counts as there).
    ///   - waiting: a waiter of an earlier run is waiting to show today's reminder.
    public static func decide(
        _ reminder: LocalReminder, preferences: NotificationPreferences, now: Instant, zone: ZoneRules,
        shown: ShownDay? = nil, entrySince: EntrySince? = nil, waiting: Bool = false
    ) -> DeliveryDecision {
        let local = zone.localDateTime(of: now)
        let today = local.date
        if !reminder.recurrence.includes(today) {
            return .notDue(.notTheDay(Weekday(of: today), zone: zone.name, recurrence: reminder.recurrence.words))
        }
        // The reading, not an instant: after a jump over the time (a DST gap, a zone change) the
        // first moment after it is the reminder's, and a clock put back before it waits again.
        if local < LocalDateTime(date: today, hour: reminder.time.hour, minute: reminder.time.minute) {
            return .notDue(.beforeTime(reminder.time, local: local, zone: zone.name))
        }
        if shown?.covers(today, now: now) == true { return .notDue(.shownToday(today)) }
        if waiting { return .notDue(.waiting) }
        if let entrySince, !entrySince.existed(before: reminder.time, on: today, zone: zone) {
            return .notDue(.entryAfterTime(reminder.time, since: zone.localDateTime(of: entrySince.instant), zone: zone.name))
        }
        if let reason = LocalReminders.blockReason(for: reminder, in: preferences) {
            return .skip(reason.message(for: reminder))
        }
        return .deliver
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
