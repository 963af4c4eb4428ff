import LinuxGateway
@testable import NotifApp
import SharedLogic
import Testing

/// `status`'s row for a reminder says what is scheduled, not what would be, from the one typed
/// status (settings and the scheduler's facts written out by hand).
@Suite struct StatusRowTests {
    let tips = LocalReminders.tipsAndUpdates

    func row(_ change: (inout NotificationPreferences) -> Void, entry: InstalledEntry? = nil, cannotFire: CannotFire? = nil) -> String {
        var preferences = NotificationPreferences()
        preferences.permission = .granted
        change(&preferences)
        let facts = SchedulerFacts(scheduler: .cron, entries: entry.map { [$0.id: $0] } ?? [:], schedulerCannotFire: cannotFire)
        let status = ReminderStatus.compute(preferences, facts: facts, nextFire: [tips.id: Instant(seconds: 1_796_115_600)])
        let report = StatusReport(preferences: preferences, choice: SchedulerChoice(kind: .cron, forced: false), schedulerState: nil,
                                  reminders: status, lastDelivery: nil, warnings: [], schedulers: [])
        return Commands.reminderValue(tips, report: report)
    }

    var current: InstalledEntry { InstalledEntry(id: "tips-and-updates", current: true) }

    @Test func offSaysWhenItWouldComeInGuestProjectsOnly() {
        #expect(row { $0[.tipsAndUpdates] = false } == "off (09:00 daily when on)")
        #expect(row { $0[.tipsAndUpdates] = false; $0.mode = .account } == "off")
    }

    @Test func onButBlockedSaysWhatBlocksIt() {
        #expect(row { $0[.tipsAndUpdates] = true; $0[.pushNotifications] = false } == "on, not scheduled: Push Notifications is off")
        #expect(row { $0[.tipsAndUpdates] = true; $0.mode = .account } == "on, not scheduled: Account project, reminders come from the server")
        #expect(row { $0[.tipsAndUpdates] = true; $0.permission = .notDetermined } == "on, not scheduled: permission is Not decided")
        #expect(row { $0[.tipsAndUpdates] = true; $0.permission = .denied } == "on, not scheduled: permission is Don't allow")
    }

    @Test func onSaysWhetherItsEntryIsThereAndFires() {
        #expect(row({ $0[.tipsAndUpdates] = true }, entry: current) == "on: 09:00 daily")
        #expect(row { $0[.tipsAndUpdates] = true } == "on, not scheduled yet: `notif apply` installs it")
        #expect(row({ $0[.tipsAndUpdates] = true }, entry: current, cannotFire: .noSystemd) == "on: 09:00 daily, but its entry cannot fire (see Fires)")
        var gone = current
        gone.program = "/opt/old/notif"
        gone.programRunnable = false
        #expect(row({ $0[.tipsAndUpdates] = true }, entry: gone) == "on: 09:00 daily, but its entry cannot fire (see Fires)")
    }
}
