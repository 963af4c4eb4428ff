import TestSupport
import Testing
@testable import SharedLogic

/// One more toggle and reminder, defined once in `LongerTable`: `set` knows it, settings.json
/// stores it in the table's order, and the plan follows it.
@Suite struct LongerTableTests {
    let table = LongerTable.catalog

    @Test func setParsesItInTheTablesOrder() throws {
        #expect(Setting.all(in: table).map(\.name) == ["push-notifications", "tips-and-updates", "queue-alerts", "promotions", "weekly-review",
                                                        "sound", "vibration", "scheduler"])
        let setting = try #require(Setting(name: "weekly-review", in: table))
        #expect(setting == .toggle(LongerTable.toggle) && setting.values == ["on", "off"])
        let on = try #require(setting.applying("on", to: NotificationPreferences()))
        #expect(on[LongerTable.toggle] && setting.value(in: on) == "on")
        #expect(Setting(name: "weekly-review") == nil, "notif's own table does not have it")
    }

    @Test func theJSONFileKeepsItInOrderAndReadsItBack() throws {
        var p = NotificationPreferences()
        #expect(p[LongerTable.toggle] == false, "its default")
        p[LongerTable.toggle] = true
        let document = PreferencesCodec.encode(p, catalog: table)
        #expect(document.objectMembers?.map(\.key).prefix(9) == ["version", "mode", "pushNotifications", "tipsAndUpdates", "queueAlerts",
                                                                "promotions", "weeklyReview", "sound", "vibration"])
        let text = JSONWriter.pretty(document).description
        #expect(text.contains("\"weeklyReview\": true"), "\(text)")
        #expect(try PreferencesCodec.decode(Array(text.utf8), catalog: table)[LongerTable.toggle])
        #expect(throws: PreferencesDecodingError.wrongType(key: "weeklyReview", expected: "true or false", found: "\"yes\"")) {
            try PreferencesCodec.decode(Array("{\"weeklyReview\": \"yes\"}".utf8), catalog: table)
        }
    }

    @Test func thePlanFollowsItsToggleAndTheMasterSwitch() {
        var p = NotificationPreferences()
        p.permission = .granted
        #expect(LocalReminders.plan(p, reminders: table.reminders).isEmpty)
        p[LongerTable.toggle] = true
        #expect(LocalReminders.plan(p, reminders: table.reminders).map(\.id) == ["weekly-review"])
        p[.pushNotifications] = false
        #expect(LocalReminders.blockReason(for: LongerTable.reminder, in: p) == .masterSwitchOff)
        #expect(table.detail(LongerTable.toggle) == "Every Monday at 10:00")
    }
}
