/// When an installed entry really shows its reminder: the first of its scheduler's runs at which
/// `notif deliver`, in the zone the entry gives it, takes the reminder to be due. `status`'s
/// `Next reminder` comes from this, so it never names a time the entries will not deliver.
public enum EntryShowing: Equatable, Sendable {
    /// At the reminder's time in the zone notif shows now: the entry is what `apply` writes.
    case asWanted
    /// At this moment, which is not the wanted one (the entry was written for another zone, say).
    case at(Instant)
    /// None of its runs in the coming weeks comes at the reminder's time where `notif deliver` counts it.
    case never

    /// How far ahead runs are looked at: two weeks holds a weekly reminder's day twice.
    public static let horizonDays = 15

    /// The first run of the entry `firing` describes after `now` that shows `reminder`, or never.
    /// - Parameters:
    ///   - deliveryZone: the zone `notif deliver` counts the reminder's time in when the entry
    ///     runs it (the `TZ` the entry carries, else its scheduler's zone).
    ///   - zone: a zone by the name the entry gives (nil: the scheduler's own when it names
    ///     none, the built-in daemon's); nil when it cannot be found (those runs are left out).
    ///   - lastDelivered: the local day the reminder was last shown (that day's runs show nothing).
    public static func of(_ reminder: LocalReminder, firing: EntryFiring, deliveryZone: ZoneRules,
                          zone: (String?) -> ZoneRules?, after now: Instant, lastDelivered: CivilDate?) -> EntryShowing {
        var shows = NotificationPreferences()
        shows.permission = .granted
        shows[reminder.preference] = true
        // Only the entry's timing is asked here: whether the settings let it show is the status's other half.
        let first = runs(of: firing, zone: zone, after: now).first { run in
            DeliveryDecision.decide(reminder, preferences: shows, now: run, zone: deliveryZone,
                                    shown: lastDelivered.map { ShownDay(day: $0) }) == .deliver
        }
        return first.map(EntryShowing.at) ?? .never
    }

    /// The entry's runs after `now` up to the horizon, in order: each daily (or weekly) time in
    /// the zone its scheduler counts it in.
    static func runs(of firing: EntryFiring, zone: (String?) -> ZoneRules?, after now: Instant) -> [Instant] {
        var slots: [(time: DailyTime, weekday: Weekday?, zone: ZoneRules)] = []
        switch firing.schedule {
        case .cron(let times, let systemZone, _, _):
            // The hourly runs on fall-back days are left out: they only repeat the daily ones.
            if let system = zone(systemZone) { slots = times.map { ($0, nil, system) } }
        case .systemd(let calendars, let managerZone):
            for calendar in calendars {
                guard let (time, weekday) = daily(calendar.calendar), let found = zone(calendar.zone ?? managerZone) else { continue }
                slots.append((time, weekday, found))
            }
        case .embedded(let time, let weekday, let name):
            if let found = zone(name) { slots = [(time, weekday, found)] }
        }
        let end = now.seconds + Int64(horizonDays) * 86_400
        var result: [Instant] = []
        for slot in slots {
            var after = now
            while true {
                let run = ReminderClock.nextFire(of: slot.time, recurrence: slot.weekday.map(Recurrence.weekly) ?? .daily, after: after, in: slot.zone)
                guard run.seconds <= end else { break }
                result.append(run)
                after = run
            }
        }
        return result.sorted()
    }

    /// The time and weekday of a calendar as notif writes them (`*-*-* 09:00:00`,
    /// `Mon *-*-* 09:00:00`); nil for any other.
    static func daily(_ calendar: String) -> (DailyTime, Weekday?)? {
        var words = calendar.split(separator: " ")
        var weekday: Weekday?
        if words.count == 3, let day = Weekday.allCases.first(where: { $0.short == words[0] }) {
            weekday = day
            words.removeFirst()
        }
        guard words.count == 2, words[0] == "*-*-*" else { return nil }
        let parts = words[1].split(separator: ":")
        guard parts.count == 3, parts[2] == "00", let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return (DailyTime(hour: hour, minute: minute), weekday)
    }
}
