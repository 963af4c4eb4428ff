import Testing
@testable import SharedLogic

/// When an entry's runs show its reminder, by `notif deliver`'s own rule, in the zone the entry gives it.
@Suite struct EntryShowingTests {
    let reminder = LocalReminders.all[0]
    let now = ISO8601.parse("2026-12-01T06:00:00Z")!
    /// UTC+05:30 all year (Kolkata) and UTC+01:00 (Berlin in winter), as POSIX rules.
    let kolkata = ZoneRules(posix: "IST-5:30")!
    let berlin = ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!

    func zones(_ name: String?) -> ZoneRules? {
        switch name {
        case nil, "UTC": return .utc
        case "Kolkata": return kolkata
        case "Berlin": return berlin
        default: return nil
        }
    }

    @Test func aRunAtTheReminderTimeWhereDeliverCountsItShowsIt() {
        let embedded = EntryFiring(.embedded(time: DailyTime(hour: 9, minute: 0), weekday: nil, zone: nil))
        #expect(EntryShowing.of(reminder, firing: embedded, deliveryZone: .utc, zone: zones, after: now, lastDelivered: nil)
                == .at(ISO8601.parse("2026-12-01T09:00:00Z")!))
        // Already shown today (in the delivery zone): tomorrow.
        #expect(EntryShowing.of(reminder, firing: embedded, deliveryZone: .utc, zone: zones, after: now,
                                lastDelivered: CivilDate(year: 2026, month: 12, day: 1)) == .at(ISO8601.parse("2026-12-02T09:00:00Z")!))
        // Counted in Kolkata, a run at 09:00 UTC is 14:30 there: after 09:00, so it shows it, late.
        #expect(EntryShowing.of(reminder, firing: embedded, deliveryZone: kolkata, zone: zones, after: now, lastDelivered: nil)
                == .at(ISO8601.parse("2026-12-01T09:00:00Z")!))
        // Counted in New York, it is 04:00 there: before the day's 09:00 every day, so never.
        #expect(EntryShowing.of(reminder, firing: embedded, deliveryZone: ZoneRules(posix: "EST5")!, zone: zones, after: now,
                                lastDelivered: nil) == .never)
    }

    /// cron lines for Berlin on a UTC machine (07:00 and 08:00 UTC): in December the 08:00 one.
    @Test func ofSeveralCronTimesTheOneAtTheReminderTimeShowsIt() {
        let cron = EntryFiring(.cron(times: [DailyTime(hour: 7, minute: 0), DailyTime(hour: 8, minute: 0)], systemZone: "UTC",
                                     matchesWanted: true, hourlyOnFallBack: false))
        #expect(EntryShowing.of(reminder, firing: cron, deliveryZone: berlin, zone: zones, after: now, lastDelivered: nil)
                == .at(ISO8601.parse("2026-12-01T08:00:00Z")!))
        // A zone the entry names that cannot be found: those runs are left out.
        let lost = EntryFiring(.cron(times: [DailyTime(hour: 8, minute: 0)], systemZone: "Nowhere", matchesWanted: false, hourlyOnFallBack: false))
        #expect(EntryShowing.of(reminder, firing: lost, deliveryZone: berlin, zone: zones, after: now, lastDelivered: nil) == .never)
    }

    @Test func systemdCalendarsAsNotifWritesThemAreRead() {
        #expect(EntryShowing.daily("*-*-* 09:00:00").map { "\($0.0) \($0.1.map(\.short) ?? "daily")" } == "09:00 daily")
        #expect(EntryShowing.daily("Mon *-*-* 10:30:00").map { "\($0.0) \($0.1.map(\.short) ?? "daily")" } == "10:30 Mon")
        for other in ["daily", "*-*-* 09:00", "*-*-* 09:00:30", "Mon..Fri *-*-* 09:00:00", "2026-*-* 09:00:00"] {
            #expect(EntryShowing.daily(other) == nil, "\(other)")
        }
        let timer = EntryFiring(.systemd(calendars: [SystemdCalendar(calendar: "*-*-* 09:00:00", zone: "Kolkata")], managerZone: "UTC"))
        #expect(EntryShowing.of(reminder, firing: timer, deliveryZone: kolkata, zone: zones, after: now, lastDelivered: nil)
                == .at(ISO8601.parse("2026-12-02T03:30:00Z")!))
    }
}
