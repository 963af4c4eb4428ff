import Testing
@testable import SharedLogic

/// The table is what every surface reads: names, order, defaults, details.
@Suite struct NotifCatalogTests {
    let table = NotifCatalog.standard

    @Test func settingsAndTheirOrderComeFromTheTable() {
        #expect(Setting.all.map(\.name) == ["push-notifications", "tips-and-updates", "queue-alerts", "promotions", "sound", "vibration", "scheduler"])
        #expect(table.toggles.map(\.name) == Setting.all.compactMap { if case .toggle(let t) = $0 { return t.name } else { return nil } })
    }

    @Test func theJSONOrderAndDefaultsComeFromTheTable() {
        let keys = PreferencesCodec.encode(NotificationPreferences()).objectMembers?.map(\.key) ?? []
        #expect(keys.prefix(8) == ["version", "mode", "pushNotifications", "tipsAndUpdates", "queueAlerts", "promotions", "sound", "vibration"])
        let defaults = NotificationPreferences()
        for toggle in table.toggles { #expect(defaults[toggle] == toggle.defaultValue, "\(toggle.label)") }
    }

    @Test func aReminderGivesItsToggleItsDetailAndItsWords() {
        #expect(table.detail(.tipsAndUpdates) == "Daily at 09:00")
        #expect(table.detail(.queueAlerts) == "When your turn comes up")
        #expect(LocalReminders.tipsAndUpdates.schedule == "daily at 09:00" && LocalReminders.tipsAndUpdates.timeFirst == "09:00 daily")
        let weekly = LocalReminder(id: "weekly", title: "Weekly review", body: "b", time: DailyTime(hour: 10, minute: 0),
                                   recurrence: .weekly(.monday), preference: .promotions)
        #expect(weekly.schedule == "every Monday at 10:00" && weekly.scheduleHeading == "Every Monday at 10:00")
        var extended = table
        extended.reminders.append(weekly)
        #expect(extended.detail(.promotions) == "Every Monday at 10:00")
        #expect(extended.remindersInWords == "a Tips & Updates reminder daily at 09:00 and a Weekly review reminder every Monday at 10:00")
    }

    @Test func weekdaysAndWeeklyFiring() throws {
        #expect(Weekday(of: CivilDate(year: 2026, month: 11, day: 30)) == .monday)
        #expect(Weekday(of: CivilDate(year: 1970, month: 1, day: 1)) == .thursday)
        #expect(Weekday(of: CivilDate(year: 1969, month: 12, day: 28)) == .sunday)
        #expect(Weekday.sunday.cronNumber == 0 && Weekday.monday.cronNumber == 1)
        let weekly = LocalReminder(id: "weekly", title: "W", body: "b", time: DailyTime(hour: 10, minute: 0),
                                   recurrence: .weekly(.monday), preference: .promotions)
        let berlin = try TestSupport.zone("Europe/Berlin")
        // Tue 1 Dec 2026 10:00 Berlin: the next is Mon 7 Dec 10:00.
        let after = berlin.resolve(LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 1), hour: 10, minute: 0))
        let next = berlin.localDateTime(of: ReminderClock.nextFire(of: weekly, after: after, in: berlin))
        #expect(next == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7), hour: 10, minute: 0))
        // On a Monday before 10:00 it is that day.
        let monday = berlin.resolve(LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7), hour: 9, minute: 59))
        #expect(berlin.localDateTime(of: ReminderClock.nextFire(of: weekly, after: monday, in: berlin)).date == CivilDate(year: 2026, month: 12, day: 7))
    }
}
