import SharedLogic
import Testing
@testable import SettingsUI

/// The words after `Next reminder:` for every reason a reminder is or is not coming.
@Suite struct NextReminderTextTests {
    static let nine = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 9, minute: 0)

    static func wanted(_ change: (inout NotificationPreferences) -> Void = { _ in }) -> NotificationPreferences {
        var preferences = NotificationPreferences()
        preferences.tipsAndUpdates = true
        preferences.permission = .granted
        change(&preferences)
        return preferences
    }

    static let installed = SchedulerStatus(scheduler: .cron, installed: ["tips-and-updates"], nextFire: ["tips-and-updates": nine])

    @Test func anInstalledReminderShowsItsNextLocalTime() {
        #expect(NextReminderText.describe(Self.wanted(), Self.installed) == "Mon 30 Nov 09:00")
    }

    @Test(arguments: [
        (wanted { $0.tipsAndUpdates = false }, "none — off (Tips & Updates is off)"),
        (wanted { $0.pushNotifications = false }, "none — off (Push Notifications is off)"),
        (wanted { $0.permission = .denied }, "none — blocked: permission is Don't allow (p changes it)"),
        (wanted { $0.permission = .notDetermined }, "none — permission is Not decided (press p)"),
        (wanted { $0.mode = .account }, "none — Account project (reminders are a Guest feature)"),
    ])
    func whatTheSettingsBlockIsNamed(preferences: NotificationPreferences, expected: String) {
        #expect(NextReminderText.describe(preferences, Self.installed) == expected)
    }

    /// An entry written for another zone shows the reminder at another time: the page gives
    /// that time first, then the wanted one, and `r` (shown on the key bar) applies again; an
    /// entry that never comes at the reminder's time says so.
    @Test func anEntryThatFiresAtAnotherTimeSaysBoth() {
        var entry = InstalledEntry(id: "tips-and-updates", current: false)
        entry.showing = .at(ZoneRules.utc.resolve(LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 14, minute: 30)))
        var status = SchedulerStatus(facts: SchedulerFacts(scheduler: .embedded, entries: ["tips-and-updates": entry]),
                                     nextFire: ["tips-and-updates": ZoneRules.utc.resolve(Self.nine)])
        #expect(NextReminderText.describe(Self.wanted(), status) == "Mon 30 Nov 14:30, not Mon 30 Nov 09:00 (r schedules it then)")
        var s = Script(preferences: Self.wanted { $0.onboardingCompleted = true }, status: status)
        #expect(s.screen.contains("r retry"), "\(s.screen)")
        s.settles = false
        #expect(s.press(.char("r")) == [.apply(choosing: false)])
        entry.showing = .never
        status.facts.entries = ["tips-and-updates": entry]
        #expect(NextReminderText.describe(Self.wanted(), status) == "none — its entry never comes at the reminder's time (r rewrites it)")
    }

    @Test func noSchedulerAvailableIsSaid() {
        let none = SchedulerStatus(scheduler: nil, installed: nil, warnings: ["no scheduler"], checked: true)
        #expect(NextReminderText.describe(Self.wanted(), none) == "none — no scheduler available")
        #expect(NextReminderText.describe(Self.wanted(), none, unicode: false) == "none - no scheduler available")
    }

    @Test func wantedButNotInstalledIsNotScheduledYet() {
        let missing = SchedulerStatus(scheduler: .cron, installed: [], nextFire: ["tips-and-updates": Self.nine])
        #expect(NextReminderText.describe(Self.wanted(), missing) == "none — not scheduled yet")
    }

    @Test func beforeTheSchedulerIsLookedAtItSaysChecking() {
        let unchecked = SchedulerStatus(checked: false)
        #expect(NextReminderText.describe(Self.wanted(), unchecked) == "checking…")
        #expect(NextReminderText.describe(Self.wanted(), unchecked, unicode: false) == "checking...")
    }
}

/// The page says when an installed entry cannot fire, with what to do, and shows no time.
@Suite struct NextReminderCannotFireTests {
    @Test(arguments: [
        (CannotFire.daemonNotRunning, "none — cannot fire: notif daemon is not running (start `notif daemon`, or s chooses another scheduler)"),
        (.noSystemd, "none — cannot fire: no systemd here (s chooses another scheduler)"),
        (.programMissing("/opt/notif"), "none — cannot fire: its program \"/opt/notif\" is gone; open the installed notif"),
    ])
    func theReasonAndTheFixAreSaid(_ why: CannotFire, _ expected: String) {
        var status = NextReminderTextTests.installed
        if case .programMissing(let path) = why {
            status.facts.entries?["tips-and-updates"]?.program = path
            status.facts.entries?["tips-and-updates"]?.programRunnable = false
        } else {
            status.facts.schedulerCannotFire = why
        }
        let line = NextReminderText.line(NextReminderTextTests.wanted(), status)
        #expect(line == .none(expected))
        #expect(line.isDim, "drawn as no reminder")
    }
}
