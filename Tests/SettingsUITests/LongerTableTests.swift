import SharedLogic
import TestSupport
import Testing
@testable import SettingsUI

/// The page built with one more toggle and reminder (`LongerTable`): its row, its detail, focus
/// reaching it, Space saving it, and the next reminder it gives.
@Suite struct LongerTablePageTests {
    func script(_ change: (inout NotificationPreferences) -> Void = { _ in }) -> Script {
        var p = NotificationPreferences()
        p.onboardingCompleted = true
        p.permission = .granted
        change(&p)
        // Sunday 6 Dec 2026 noon: the weekly review comes Monday 7 Dec at 10:00.
        var status = SchedulerStatus(scheduler: .cron, installed: [LongerTable.reminder.id],
                                     nextFire: [LongerTable.reminder.id: LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7), hour: 10, minute: 0)])
        status.checked = true
        var s = Script(preferences: p, status: status)
        s.state.catalog = LongerTable.catalog
        return s
    }

    @Test func itsRowStandsAfterPromotionsWithItsSchedule() {
        let screen = script().screen
        let lines = screen.split(separator: "\n").map(String.init)
        let promotions = lines.firstIndex { $0.contains("Promotions") } ?? -1
        #expect(lines.indices.contains(promotions + 1) && lines[promotions + 1].contains("[ ] Weekly review        Every Monday at 10:00"), "\(screen)")
        #expect(lines.indices.contains(promotions + 2) && lines[promotions + 2].contains("Sound") && lines[promotions + 2].contains("default"), "\(screen)")
    }

    @Test func focusReachesItAndSpaceSavesIt() {
        var s = script()
        s.press(.down, .down, .down, .down)
        #expect(s.state.focus.toggle == LongerTable.toggle)
        s.press(.char(" "))
        #expect(s.effects.contains(.commit([.toggle(LongerTable.toggle, true)])), "\(s.effects)")
        #expect(s.state.preferences[LongerTable.toggle])
        #expect(s.screen.contains("[x] Weekly review"))
    }

    @Test func theNextReminderIsItsMonday() {
        let on = script { $0[LongerTable.toggle] = true }
        #expect(on.screen.contains("Next reminder: Mon 7 Dec 10:00"), "\(on.screen)")
        let off = script()
        #expect(off.screen.contains("Next reminder: none — off (Tips & Updates is off)"), "\(off.screen)")
    }
}
