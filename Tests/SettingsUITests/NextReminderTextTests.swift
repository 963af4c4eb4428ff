import SharedLogic
import Testing
import TestSupport
@testable import SettingsUI

/// The words after `Next reminder:` for every reason a reminder is or is not coming.
@Suite struct NextReminderTextTests {
    static let nine = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 9, minute: 0)

    static func wanted(_ change: (inout NotificationPreferences) -> Void = { _ in }) -> NotificationPreferences {
        var preferences = NotificationPreferences()
        preferences[.tipsAndUpdates] = true
        preferences.permission = .granted
        change(&preferences)
        return preferences
    }

    static let installed = SchedulerStatus(scheduler: .cron, installed: ["tips-and-updates"], nextFire: ["tips-and-updates": nine])

    @Test func anInstalledReminderShowsItsNextLocalTime() {
        #expect(NextReminderText.describe(Self.wanted(), Self.installed) == "Mon 30 Nov 09:00")
    }

    /// On a scheduler that is not running yet (cron stopped), the time says what it waits for, on
    /// the same line (trial 38); another scheduler's state does not.
    @Test func aTimeOnASchedulerNotRunningYetSaysWhatItWaitsFor() {
        var status = Self.installed
        status.options = [SchedulerUsability(choice: .cron, state: .waiting, reason: "the cron daemon is not running; entries fire once it runs",
                                             once: "once the cron daemon runs"),
                          SchedulerUsability(choice: .systemd, state: .waiting, reason: "no manager", once: "once your systemd user manager starts")]
        #expect(NextReminderText.describe(Self.wanted(), status) == "Mon 30 Nov 09:00, once the cron daemon runs")
        status.options[0] = SchedulerUsability(choice: .cron, state: .ready, reason: "the cron daemon runs")
        #expect(NextReminderText.describe(Self.wanted(), status) == "Mon 30 Nov 09:00")
    }

    /// While a waiter waits for a notification service, the line says today's is waiting, not tomorrow.
    @Test func aWaitingReminderSaysTodaysIsWaiting() {
        let since = ZoneRules.utc.resolve(LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 9, minute: 2))
        var status = Self.installed
        status.facts.waiting = ["tips-and-updates": since]
        let line = NextReminderText.line(Self.wanted(), status)
        #expect(line == .time("today's, waiting since 09:02 for a notification service") && !line.isDim)
        #expect(NextReminderText.describe(Self.wanted { $0[.tipsAndUpdates] = false }, status) == "none — off (Tips & Updates is off)",
                "a reminder turned off is not waited for")
    }

    /// Today's is owed (its waiter ended, a run failed, nothing waits): the page says how to send
    /// it before naming tomorrow's; not when it is turned off, nor when it waits.
    @Test func anOwedReminderSaysHowToSendItBeforeTheNextOne() {
        var status = Self.installed
        status.facts.owed = ["tips-and-updates"]
        #expect(NextReminderText.describe(Self.wanted(), status)
                == "today's is due and not sent, and nothing waits to send it: `notif deliver --catch-up tips-and-updates` sends it now; then Mon 30 Nov 09:00")
        #expect(NextReminderText.describe(Self.wanted { $0[.tipsAndUpdates] = false }, status) == "none — off (Tips & Updates is off)")
        // With no next run (the daemon is not running), the owed one is still said first.
        var stopped = status
        stopped.facts.schedulerCannotFire = .daemonNotRunning
        let line = NextReminderText.line(Self.wanted(), stopped)
        #expect(line.text.hasPrefix("today's is due and not sent") && line.text.contains("; then none — cannot fire: notif daemon is not running")
                && !line.isDim, "\(line)")
        status.facts.waiting = ["tips-and-updates": ZoneRules.utc.resolve(Self.nine)]
        #expect(NextReminderText.describe(Self.wanted(), status).hasPrefix("today's, waiting since"))
    }

    @Test(arguments: [
        (wanted { $0[.tipsAndUpdates] = false }, "none — off (Tips & Updates is off)"),
        (wanted { $0[.pushNotifications] = false }, "none — off (Push Notifications is off)"),
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
        #expect(NextReminderText.describe(Self.wanted(), status) == "none — entries miss the reminder's time; r rewrites them")
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

/// The status area's most important line fits the window: at 80×24 it wraps under itself,
/// whole; where even three rows are too few, the cut is marked (`...` without Unicode).
@Suite struct NextReminderFitTests {
    static func state(size: TerminalSize, unicode: Bool, error: String? = nil) -> AppState {
        var status = NextReminderTextTests.installed
        status.facts.schedulerCannotFire = .daemonNotRunning
        var state = AppState(preferences: NextReminderTextTests.wanted { $0.onboardingCompleted = true }, status: status, size: size, unicode: unicode)
        state.error = error
        return state
    }

    /// The text after `Next reminder:`, from its rows (column 16 on) up to the Scheduler line.
    static func nextReminderRows(_ canvas: Canvas) -> [String] {
        guard let first = canvas.row(containing: "Next reminder:"), let scheduler = canvas.row(containing: "Scheduler:") else { return [] }
        return (first..<scheduler).map { String(canvas.text(ofRow: $0).dropFirst(16)) }
    }

    @Test(arguments: [true, false])
    func atEightyByTwentyFourTheLineWrapsWhole(unicode: Bool) {
        let state = Self.state(size: TerminalSize(width: 80, height: 24), unicode: unicode)
        let canvas = SettingsRenderer.render(state)
        let rows = Self.nextReminderRows(canvas)
        let whole = NextReminderText.describe(state.preferences, state.status, unicode: unicode)
        #expect(rows.count == 2 && rows.joined(separator: " ") == whole, "\(rows)")
        #expect(rows.allSatisfy { TextWidth.of($0) <= 80 - 17 })
        if unicode { assertSnapshot(canvas, named: "page-cannot-fire") }
    }

    @Test(arguments: [true, false])
    func whereRowsRunOutTheCutIsMarked(unicode: Bool) {
        // The smallest page, with an error to show: two rows are left for the line.
        let state = Self.state(size: SettingsApp.minimumSize, unicode: unicode, error: "Not scheduled: crontab failed")
        let canvas = SettingsRenderer.render(state)
        let rows = Self.nextReminderRows(canvas)
        let mark = unicode ? " …" : " ..."
        #expect(rows.count == 2 && (rows[1].hasSuffix(mark) || rows[1].hasSuffix(mark + ")")), "\(rows)")
        #expect(Parentheses.problem(in: rows.joined(separator: " ")) == nil, "a cut inside parentheses closes them")
        #expect(canvas.row(containing: "Not scheduled: crontab") != nil, "the error still shows")
        #expect(TextWidth.truncate("abcdefgh", to: 6, unicode: false) == "abc...")
        #expect(TextWidth.truncate("abcdefgh", to: 6) == "abcde…")
        #expect(TextWidth.truncate("abcdefgh", to: 2, unicode: false) == "..")
        #expect(TextWidth.truncate("ab (cdefgh)", to: 8) == "ab (cd…)" && TextWidth.truncate("ab (cdefgh)", to: 8, unicode: false) == "ab (...)")
        #expect(TextWidth.wrap("aaaa (b cc dd ee)", width: 10, maxRows: 1) == ["aaaa (b …)"])
    }
}
