import Testing
import SharedLogic
@testable import SettingsUI

/// The `Scheduler:` line of the status area and the chooser it opens.
@Suite struct SchedulerChooserTests {
    /// What the shell reports on a machine with cron only: auto keeps cron.
    static let cronHolds = SchedulerStatus(
        scheduler: .cron, installed: ["tips-and-updates"], warnings: [], nextFire: SchedulerStatus.nine,
        options: [
            SchedulerUsability(choice: .auto, state: .ready, reason: "auto keeps the reminder on its scheduler while that one can hold it, and picks one otherwise. Cron holds the reminder and can still hold it"),
            SchedulerUsability(choice: .systemd, state: .unusable, reason: "no systemd user manager runs, and this machine was not started with systemd"),
            SchedulerUsability(choice: .cron, state: .ready, reason: "the cron daemon runs"),
            SchedulerUsability(choice: .embedded, state: .unusable, reason: "fires only while `notif daemon` runs, and it is not running; `notif daemon --install-autostart` starts it at each login"),
        ])

    func script(_ change: (inout NotificationPreferences) -> Void = { _ in }) -> Script {
        Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted; change(&$0) }, status: Self.cronHolds)
    }

    @Test func theLineSaysWhichSchedulerWhyAndTheKey() {
        #expect(script().screen.contains(" Scheduler: cron (auto; s changes)   Permission: Allow"))
        #expect(script { $0.scheduler = .cron }.screen.contains(" Scheduler: cron (chosen; s changes)"))
        // Entries a one-off --scheduler put on cron while systemd is the saved choice.
        #expect(script { $0.scheduler = .systemd }.screen.contains(" Scheduler: cron (kept; chosen: systemd; s changes)"))
        var overridden = script()
        overridden.state.status.overriddenBy = "--scheduler"
        #expect(overridden.screen.contains(" Scheduler: cron (--scheduler; s changes)"))
        overridden.state.status.overriddenBy = "NOTIF_SCHEDULER"
        #expect(overridden.screen.contains(" Scheduler: cron (NOTIF_SCHEDULER; s changes)"))
        // Narrow terminals drop the key, then the note, before the permission is cut.
        var narrow = script()
        narrow.send(.resize(TerminalSize(width: 52, height: 16)))
        #expect(narrow.screen.contains(" Scheduler: cron (auto)   Permission: Allow"))
        var narrowest = script { $0.permission = .notDetermined }
        narrowest.send(.resize(SettingsApp.minimumSize))
        #expect(narrowest.screen.contains(" Scheduler: cron   Permission: Not decided"))
    }

    @Test func sOpensTheChooserOnTheSavedChoiceAndEnterSavesAnother() {
        var s = script()
        #expect(KeyMap.command(for: .char("s"), in: .page) == .scheduler)
        #expect(s.press(.char("s")) == [.checkSchedulers])
        #expect(s.state.dialog == .schedulerList(selected: .auto))
        assertSnapshot(s.canvas, named: "scheduler-chooser")
        #expect(s.canvas.cursor?.row == s.canvas.row(containing: "› ● auto"))
        s.press(.down, .char("j"))
        #expect(s.state.dialog == .schedulerList(selected: .cron))
        #expect(s.screen.contains("› ") && s.screen.contains("The cron daemon runs"))
        s.press(.down, .down, .down)
        #expect(s.state.dialog == .schedulerList(selected: .embedded), "stops at the last")
        #expect(s.screen.contains("embedded  not usable") && s.screen.contains("Fires only while `notif daemon` runs"))
        s.press(.up)
        #expect(s.press(.enter) == [.commit([.scheduler(.cron)])])
        #expect(s.state.dialog == nil && s.state.preferences.scheduler == .cron)
    }

    @Test func escapeClosesAndChoosingWhatIsInUseChangesNothing() {
        var s = script()
        s.press(.char("s"), .down)
        #expect(s.press(.escape).isEmpty && s.state.dialog == nil && s.state.preferences.scheduler == .auto)
        s.press(.char("s"))
        #expect(s.press(.char("q")).isEmpty && s.state.dialog == nil, "q closes the list, as in the Sound list")
        s.press(.char("s"))
        #expect(s.press(.enter).isEmpty, "auto is already saved")
        var chosen = script { $0.scheduler = .cron }
        chosen.press(.char("s"))
        #expect(chosen.state.dialog == .schedulerList(selected: .cron))
        #expect(chosen.press(.enter).isEmpty, "cron is saved and holds the entries")
        // Saved systemd while cron holds the entries (put there with --scheduler): choosing systemd
        // again is a choice made now, and moves them.
        var kept = script { $0.scheduler = .systemd }
        kept.press(.char("s"))
        #expect(kept.press(.enter) == [.commit([.scheduler(.systemd)])])
    }

    @Test func clicksOnTheLineAndOnAChoice() {
        var s = script()
        let line = s.canvas.row(containing: "Scheduler: cron")!
        s.send(.click(row: line, column: 3))
        #expect(s.state.dialog == .schedulerList(selected: .auto))
        let row = s.canvas.row(containing: "embedded  not usable")!
        #expect(s.send(.click(row: row, column: 20)) == [.commit([.scheduler(.embedded)])])
        #expect(s.state.preferences.scheduler == .embedded)
    }

    @Test func theMoveIsSaidOnce() {
        var s = script()
        s.settles = false
        s.press(.char("s"), .down, .enter)
        var moved = Self.cronHolds
        moved.facts.scheduler = .systemd
        moved.moved = "Moved the reminder from cron to systemd: you chose systemd."
        s.send(.saved(s.state.preferences))
        s.send(.applied(status: moved, problem: nil))
        #expect(s.screen.contains("Moved the reminder from cron to systemd: you chose systemd."))
        #expect(s.state.status.moved == nil, "kept as the notice, not in the status")
        #expect(s.screen.contains("Scheduler: systemd (chosen; s changes)"))
    }

    /// Like other one-shot messages, the move goes with the next apply, the next change made
    /// here, or a change saved elsewhere; a refresh (the apply's own lock released) keeps it.
    @Test func theMoveIsSaidUntilTheNextApplyOrChange() {
        let line = "Moved the reminder from cron to systemd: you chose systemd."
        var moved = Self.cronHolds
        moved.facts.scheduler = .systemd
        moved.moved = line
        func afterTheMove() -> Script {
            var s = script()
            s.settles = false
            s.press(.char("s"), .down, .enter)
            s.send(.saved(s.state.preferences))
            s.send(.applied(status: moved, problem: nil))
            s.send(.statusRefreshed(Self.cronHolds))
            #expect(s.screen.contains(line), "a refresh keeps it")
            return s
        }
        var applied = afterTheMove()
        applied.send(.applied(status: Self.cronHolds, problem: nil))
        #expect(!applied.screen.contains(line), "the next apply takes it away")
        var changed = afterTheMove()
        changed.press(.down, .char(" "))
        #expect(!changed.screen.contains(line), "a change here takes it away")
        var elsewhere = afterTheMove()
        elsewhere.send(.preferencesReloaded(.with { $0[.tipsAndUpdates] = true; $0.permission = .granted; $0[.queueAlerts] = false; $0.scheduler = .systemd }))
        #expect(!elsewhere.screen.contains(line), "a change saved elsewhere takes it away")
        // Other notices stay until something replaces them.
        var other = script()
        other.settles = false
        other.state.notice = Notice("Test notification shown.")
        other.send(.applied(status: Self.cronHolds, problem: nil))
        #expect(other.screen.contains("Test notification shown."))
    }

    @Test func anEntryThatMayStillFireIsShownAsSuch() {
        var s = script()
        s.settles = false
        s.press(.down, .char(" "))
        s.send(.saved(s.state.preferences))
        s.send(.applied(status: Self.cronHolds,
                          problem: "Tips & Updates may still fire: notif could not check or remove its cron entry (crontab is not installed or not on PATH)"))
        #expect(s.screen.contains("Tips & Updates may still fire: notif could not check or remove its cron entry"))
        #expect(!s.screen.contains("Not scheduled"))
        #expect(s.screen.contains("r retry"))
    }

    @Test func accountProjectsHaveNoChooser() {
        var s = Script(preferences: .with { $0.mode = .account; $0.accountServer = "https://example.org" })
        #expect(s.press(.char("s")).isEmpty && s.state.dialog == nil)
        #expect(!s.screen.contains("Scheduler:"))
    }

    @Test func beforeTheShellHasLookedTheChooserSaysSo() {
        var s = Script(preferences: .with { _ in }, status: SchedulerStatus(checked: false))
        #expect(s.screen.contains("Scheduler: checking…"))
        s.settles = false
        s.press(.char("s"))
        #expect(s.screen.contains("auto      checking…"))
        #expect(s.screen.contains("Checking the schedulers…"))
    }

    /// What the chooser says is looked at when it opens: the page's first look is gone
    /// ("checking…") until the shell answers, and the answer is what it shows.
    @Test func openingTheChooserLooksAgain() {
        var s = script()
        s.settles = false
        #expect(s.screen.contains("Scheduler: cron"))
        #expect(s.press(.char("s")) == [.checkSchedulers])
        #expect(s.screen.contains("cron      checking…") && s.screen.contains("Checking the schedulers…"), "\(s.screen)")
        var now = Self.cronHolds.options
        now[2] = SchedulerUsability(choice: .cron, state: .waiting, reason: "the cron daemon is not running; entries fire once it runs")
        now[1] = SchedulerUsability(choice: .systemd, state: .ready, reason: "a systemd user manager runs")
        s.send(.schedulersChecked(now))
        #expect(s.screen.contains("cron      in use, not running yet"), "\(s.screen)")
        #expect(s.screen.contains("systemd   usable  "), "\(s.screen)")
        s.press(.down)
        #expect(s.screen.contains("A systemd user manager runs"))
        // Closed and opened again: looked at again.
        s.press(.escape)
        #expect(s.press(.char("s")) == [.checkSchedulers])
        #expect(s.screen.contains("cron      checking…"))
    }

    /// `--scheduler embedded` (or NOTIF_SCHEDULER) with nothing running `notif daemon`: the
    /// chooser keeps the saved mark on auto, says embedded is in use for this run only, and that
    /// it is not usable, as measured; cron with no daemon is usable but not running.
    @Test func anOverrideIsToldAsSuch() {
        var status = Self.cronHolds
        status.facts.scheduler = .embedded
        status.overriddenBy = "NOTIF_SCHEDULER"
        status.options[2] = SchedulerUsability(choice: .cron, state: .waiting, reason: "the cron daemon is not running; entries fire once it runs")
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted }, status: status)
        s.press(.char("s"))
        let screen = s.screen
        #expect(screen.contains("› ● auto      notif picks "), "\(screen)")
        #expect(screen.contains("embedded  in use for this run, cannot fire"), "\(screen)")
        #expect(screen.contains("cron      usable, not running yet  "), "\(screen)")
        #expect(screen.contains("│ This run uses embedded: NOTIF_SCHEDULER chose it for this    │"), "\(screen)")
        #expect(screen.contains("│ run only; nothing is saved. Auto keeps the reminder on its   │"), "\(screen)")
    }

    /// Choosing under an override saves the choice and says that it takes effect on a run
    /// without the override (this run's apply leaves the reminder where the override put it).
    @Test(arguments: [SchedulerPreference.cron, .auto])
    func aChoiceUnderAnOverrideSaysWhenItTakesEffect(_ choice: SchedulerPreference) {
        var status = Self.cronHolds
        status.facts.scheduler = .embedded
        status.overriddenBy = "--scheduler"
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted }, status: status)
        s.press(.char("s"))
        s.state.dialog = .schedulerList(selected: choice)
        s.press(.enter)
        #expect(s.state.notice?.text == "Scheduler choice \(choice.rawValue) saved. This run uses embedded (--scheduler), so the choice takes effect the next time notif runs without it.",
                "\(String(describing: s.state.notice))")
        #expect(s.screen.contains("Scheduler choice \(choice.rawValue) saved."), "\(s.screen)")
    }
}
