import LinuxGateway
@testable import NotifApp
import SharedLogic
import Testing

@Suite struct PresenterTests {
    /// Monday 30 November 2026, 12:00 UTC.
    let presenter = Presenter(zone: .utc)
    let tips = LocalReminders.tipsAndUpdates
    /// Tuesday 1 December 2026, 09:00 UTC: the next one.
    let nine = Instant(seconds: 1_796_115_600)

    /// The status after the change, as `ReminderService.status` makes it: its entry installed on `scheduler`.
    func report(_ scheduler: SchedulerKind, cannotFire: CannotFire? = nil, waiting: [String: Instant] = [:]) -> StatusReport {
        let facts = SchedulerFacts(scheduler: scheduler, entries: [tips.id: InstalledEntry(id: tips.id, current: true)],
                                   schedulerCannotFire: cannotFire, waiting: waiting)
        return StatusReport(preferences: allowed, choice: SchedulerChoice(kind: scheduler, forced: false), schedulerState: nil,
                            reminders: .compute(allowed, facts: facts, nextFire: [tips.id: nine]), lastDelivery: nil, warnings: [], schedulers: [])
    }

    var allowed: NotificationPreferences {
        var preferences = NotificationPreferences()
        preferences.permission = .granted
        preferences[.tipsAndUpdates] = true
        return preferences
    }

    @Test func blockedRemindersSayWhyAndHowToUnblock() {
        let prefs = NotificationPreferences()
        #expect(presenter.describe(.blocked(.permissionDenied), reminder: tips, scheduler: "cron", preferences: prefs)
            == "not scheduled: permission is Don't allow; `notif permission allow` allows them again")
        #expect(presenter.describe(.blocked(.permissionNotDetermined), reminder: tips, scheduler: "cron", preferences: prefs)
            == "not scheduled: permission is Not decided; `notif permission allow` allows notifications")
        #expect(presenter.describe(.blocked(.masterSwitchOff), reminder: tips, scheduler: "cron", preferences: prefs)
            == "not scheduled: Push Notifications is off; `notif set push-notifications on` turns it back on")
        #expect(presenter.describe(.blocked(.accountProject), reminder: nil, scheduler: "cron", preferences: prefs) == "not scheduled: blocked")
    }

    @Test func scheduledRemindersNameTheSchedulerAndTheNextFiring() {
        #expect(presenter.describe(.installed, reminder: tips, scheduler: "cron", preferences: allowed, report: report(.cron))
            == "scheduled \(tips.schedule) with cron; next Tue 1 Dec 09:00")
        #expect(presenter.describe(.unchanged, reminder: tips, scheduler: "systemd", preferences: allowed, report: report(.systemd))
            == "scheduled \(tips.schedule) with systemd (unchanged); next Tue 1 Dec 09:00")
        // Entries that cannot fire say so in place of a time, as status does.
        #expect(presenter.describe(.installed, reminder: tips, scheduler: "embedded", preferences: allowed,
                                   report: report(.embedded, cannotFire: .daemonNotRunning))
            .hasPrefix("scheduled \(tips.schedule) with embedded; it cannot fire yet: built-in entries fire only while"))
        #expect(presenter.describe(.unchanged, reminder: tips, scheduler: "systemd", preferences: NotificationPreferences())
            == "off, nothing scheduled")
    }

    /// While today's waits for a notification service, that comes next, not tomorrow's 09:00.
    @Test func aWaitingReminderIsTheNextOne() {
        let waiting = report(.systemd, waiting: [tips.id: Instant(seconds: 1_796_029_320)])   // 09:02 UTC
        #expect(presenter.describe(.unchanged, reminder: tips, scheduler: "systemd", preferences: allowed, report: waiting)
            == "scheduled \(tips.schedule) with systemd (unchanged); next today's, waiting since 09:02 for a notification service")
    }

    @Test func failuresAndCancellationsSayWhat() {
        var off = allowed
        off[.pushNotifications] = false
        #expect(presenter.describe(.cancelled, reminder: tips, scheduler: "cron", preferences: off) == "cancelled (Push Notifications is off)")
        #expect(presenter.describe(.failed("crontab: permission denied"), reminder: tips, scheduler: "cron", preferences: allowed)
            == "NOT scheduled: crontab: permission denied")
    }

    @Test func aMoveAndARemovalAreToldApart() {
        func outcome(_ change: SchedulerChange) -> ApplyOutcome {
            ApplyOutcome(preferences: allowed, choice: SchedulerChoice(kind: change.to, forced: false), report: ApplyReport(outcomes: []),
                         change: change, notice: nil)
        }
        #expect(Presenter.changeLine(outcome(SchedulerChange(from: .cron, to: .systemd, why: "you chose systemd")))
            == "Moved the reminder from cron to systemd: you chose systemd.")
        #expect(Presenter.changeLine(outcome(SchedulerChange(from: .cron, to: .systemd, why: "you chose systemd", moved: false)))
            == "Removed the reminder from cron (it goes to systemd once scheduled again): you chose systemd.")
    }

    @Test func applyLinesPutTheChangeFirstThenEachReminder() {
        let outcome = ApplyOutcome(preferences: allowed, choice: SchedulerChoice(kind: .systemd, forced: false),
                                   report: ApplyReport(outcomes: [ReminderOutcome(id: tips.id, result: .failed("no space"))]),
                                   change: SchedulerChange(from: .cron, to: .systemd, why: "you chose systemd"), notice: nil)
        #expect(presenter.applyLines(outcome) == ["Moved the reminder from cron to systemd: you chose systemd.",
                                                  "\(tips.title): NOT scheduled: no space"])
        #expect(presenter.applyLines(outcome, onlyFailures: true) == ["\(tips.title): NOT scheduled: no space"])
    }

    @Test func aLogRecordIsOneLineWhateverItHolds() {
        let record = DeliveryRecord(time: "2026-11-30T09:00:00+00:00", day: CivilDate(year: 2026, month: 11, day: 30),
                                    reminder: tips.id, kind: .catchUp, outcome: .failed, detail: "bus said\n\u{1B}[2Jno")
        #expect(presenter.recordLine(record)
            == "2026-11-30T09:00:00+00:00  tips-and-updates  failed (catch-up): bus said\\u{A}\\u{1B}[2Jno")
    }
}
