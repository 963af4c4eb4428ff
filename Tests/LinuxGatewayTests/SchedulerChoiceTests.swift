import Testing
import SharedLogic
import Storage
@testable import LinuxGateway

/// The rules for the saved scheduler choice, without files: `auto` keeps the entries where
/// they are while that scheduler can hold them; entries move when the saved choice changes,
/// when the holder can no longer hold them, or for one run with `--scheduler`.
@Suite struct SchedulerChoiceRuleTests {
    let all: Set<SchedulerKind> = [.systemd, .cron, .embedded]

    /// A probe with every fact given (a fresh instance each time: its facts are fixed).
    func probe(manager: Bool = false, booted: Bool = false, cronDaemon: Bool = false, crontab: String? = nil,
               notifDaemon: Bool = false, autostart: Bool = false) -> SchedulerProbe {
        SchedulerProbe(systemdUserManagerRunning: manager, cronDaemonRunning: cronDaemon, crontabProblem: crontab,
                       embeddedDaemonRunning: notifDaemon, systemdBooted: booted, embeddedAutostart: autostart)
    }

    func decide(_ saved: SchedulerPreference, held: (SchedulerKind, SchedulerPreference)?, _ probe: SchedulerProbe,
                override: SchedulerKind? = nil, choosing: Bool = false, placedBy: String? = nil, pending: Bool = false,
                source: String = "--scheduler") -> SchedulerChoice {
        SchedulerDetection.decide(override: override, saved: saved,
                                  placement: held.map { SchedulerPlacement(holder: $0.0, choice: $0.1, override: placedBy, choicePending: pending) },
                                  choosing: choosing, probe: probe, available: all, overrideSource: source)
    }

    /// Each row: the holder, and a probe that changed since (what `auto` alone would pick now differs).
    @Test func probeFlickersDoNotMoveEntries() {
        let flickers: [(held: SchedulerKind, now: SchedulerProbe, why: String)] = [
            (.systemd, probe(booted: true, cronDaemon: true), "the user manager stopped at logout; cron runs"),
            (.systemd, probe(booted: true), "the user manager stopped; nothing else runs"),
            (.cron, probe(manager: true, booted: true), "a systemd user manager appeared; the cron daemon is restarting"),
            (.cron, probe(manager: true, cronDaemon: true), "a systemd user manager appeared"),
            (.embedded, probe(manager: true, notifDaemon: true), "a user manager appeared while notif daemon runs"),
            (.embedded, probe(manager: true, cronDaemon: true, autostart: true), "notif daemon restarting; it starts at login"),
        ]
        for flicker in flickers {
            let picked = SchedulerDetection.choose(forced: nil, probe: flicker.now, available: all).kind
            #expect(picked != flicker.held, "the row must be one where auto alone would pick another: \(flicker.why)")
            let choice = decide(.auto, held: (flicker.held, .auto), flicker.now)
            #expect(choice.kind == flicker.held, "\(flicker.why): \(choice)")
            #expect(choice.why == "\(flicker.held.rawValue) holds the reminder and can still hold it")
        }
    }

    @Test func aSavedChangeMovesThem() {
        let machine = probe(manager: true, booted: true, cronDaemon: true)
        for saved in [SchedulerPreference.systemd, .embedded] {
            let choice = decide(saved, held: (.cron, .auto), machine)
            #expect(choice.kind?.rawValue == saved.rawValue && choice.why == "you chose \(saved.rawValue)", "\(choice)")
        }
        // A named choice is used even when its daemon does not run (with a warning).
        let idle = decide(.cron, held: (.systemd, .systemd), probe(booted: true))
        #expect(idle.kind == .cron && idle.warnings.contains { $0.contains("the cron daemon is not running") })
        // Back to auto: the holder can still hold them, so nothing moves.
        #expect(decide(.auto, held: (.cron, .cron), machine).kind == .cron)
    }

    @Test func anUnusableHolderMovesThem() {
        let cronGone = decide(.auto, held: (.cron, .auto), probe(manager: true, crontab: "crontab is not installed (Debian: apt install cron)"))
        #expect(cronGone.kind == .systemd)
        #expect(cronGone.why == "cron can no longer hold it: crontab is not installed (Debian: apt install cron); auto picked systemd: a systemd user manager runs")
        // The built-in scheduler with nothing to run it: no daemon, no autostart.
        #expect(decide(.auto, held: (.embedded, .auto), probe(manager: true)).kind == .systemd)
        #expect(decide(.auto, held: (.embedded, .auto), probe(cronDaemon: true)).kind == .cron)
        // A machine not started with systemd whose user manager is gone.
        #expect(decide(.auto, held: (.systemd, .auto), probe(cronDaemon: true)).kind == .cron)
        // Entries `--scheduler` put on a scheduler that can no longer hold them go to the named choice.
        let back = decide(.cron, held: (.embedded, .cron), probe(), placedBy: "--scheduler embedded")
        #expect(back.kind == .cron && back.why.hasPrefix("embedded can no longer hold it: ") && back.why.hasSuffix("; you chose cron"))
    }

    /// Without `crontab` notif cannot read or remove its cron lines, and a running cron daemon
    /// still runs them: `auto` keeps the reminder there and says why and how to fix it rather
    /// than put a second entry elsewhere. With no daemon either, cron is gone and they move.
    @Test func aMissingCrontabWithTheDaemonRunningKeepsTheReminderOnCron() {
        let missing = "crontab is not installed (Debian: apt install cron)"
        let kept = decide(.auto, held: (.cron, .auto), probe(cronDaemon: true, crontab: missing))
        #expect(kept.kind == .cron && !kept.forced)
        #expect(kept.why == "cron holds the reminder and its daemon still runs it, but notif cannot use crontab: \(missing)")
        #expect(kept.warnings.count == 1 && kept.warnings[0].hasPrefix("the reminder stays with cron, where it may still fire")
                && kept.warnings[0].contains("make crontab usable and run `notif apply`"), "\(kept.warnings)")
        #expect(decide(.auto, held: (.cron, .auto), probe(manager: true, cronDaemon: true, crontab: missing)).kind == .cron)
        let gone = decide(.auto, held: (.cron, .auto), probe(crontab: missing))
        #expect(gone.kind == .embedded && gone.why.hasPrefix("cron can no longer hold it: "), "\(gone)")
        // Nothing held yet: auto does not pick cron, and says truthfully why.
        let fresh = decide(.auto, held: nil, probe(cronDaemon: true, crontab: missing))
        #expect(fresh.kind == .embedded && fresh.why == "auto picked embedded: no systemd user manager runs and cron cannot be used: \(missing)", "\(fresh)")
    }

    @Test func anOverrideIsForOneRunAndNoLaterPlainRunUndoesIt() {
        let machine = probe(manager: true, booted: true, cronDaemon: true)
        let once = decide(.auto, held: (.systemd, .auto), machine, override: .cron)
        #expect(once.kind == .cron && once.forced && once.why == "--scheduler cron was given for this run")
        // What that run recorded: cron, under the saved choice auto. Plain runs keep it.
        #expect(decide(.auto, held: (.cron, .auto), machine).kind == .cron)
        // With a named saved choice too, until that choice is made again.
        let kept = decide(.systemd, held: (.cron, .systemd), machine, placedBy: "--scheduler cron")
        #expect(kept.kind == .cron && kept.why.contains("put there with --scheduler cron; `notif set scheduler systemd` moves it"), "\(kept)")
        #expect(decide(.systemd, held: (.cron, .systemd), machine, choosing: true, placedBy: "--scheduler cron").kind == .systemd)
        // A record that does not say an override put them there: the saved choice put them there, so it is honoured.
        #expect(decide(.systemd, held: (.cron, .systemd), machine).kind == .systemd)
    }

    /// A choice saved while an override is given (`NOTIF_SCHEDULER=embedded notif set scheduler
    /// cron`) cannot take effect in that run; the record says it is pending, and the next plain
    /// run honours it.
    @Test func aChoiceSavedUnderAnOverrideTakesEffectOnTheNextPlainRun() {
        let machine = probe(booted: true, cronDaemon: true, notifDaemon: true)
        let plain = decide(.cron, held: (.embedded, .cron), machine, placedBy: "NOTIF_SCHEDULER=embedded", pending: true)
        #expect(plain.kind == .cron && plain.why == "you chose cron", "\(plain)")
        // What the runs record: the overridden run that saved cron marks it pending; a later
        // overridden run keeps it pending; an override given after the choice does not.
        let saving = SchedulerPlacement.recording(.embedded, saved: .cron, override: "NOTIF_SCHEDULER=embedded", choosing: true,
                                                  previous: SchedulerPlacement(holder: .embedded, choice: .auto))
        #expect(saving == SchedulerPlacement(holder: .embedded, choice: .cron, override: "NOTIF_SCHEDULER=embedded", choicePending: true))
        #expect(SchedulerPlacement.recording(.embedded, saved: .cron, override: "--scheduler embedded", choosing: false, previous: saving).choicePending)
        let after = SchedulerPlacement.recording(.embedded, saved: .cron, override: "--scheduler embedded", choosing: false,
                                                 previous: SchedulerPlacement(holder: .cron, choice: .cron))
        #expect(after == SchedulerPlacement(holder: .embedded, choice: .cron, override: "--scheduler embedded"))
        // A plain run that keeps them where an override put them keeps the note; one that honours the choice drops it.
        #expect(SchedulerPlacement.recording(.embedded, saved: .cron, override: nil, choosing: false, previous: after) == after)
        #expect(SchedulerPlacement.recording(.cron, saved: .cron, override: nil, choosing: false, previous: saving) == SchedulerPlacement(holder: .cron, choice: .cron))
    }

    /// `NOTIF_SCHEDULER` is named as such, not as `--scheduler`.
    @Test func anOverrideFromTheEnvironmentIsNamedAsTheVariable() {
        let machine = probe(cronDaemon: true)
        #expect(decide(.auto, held: nil, machine, override: .systemd, source: "NOTIF_SCHEDULER").why == "NOTIF_SCHEDULER=systemd was given for this run")
        #expect(decide(.auto, held: nil, machine, override: .systemd).why == "--scheduler systemd was given for this run")
        let kept = decide(.cron, held: (.embedded, .cron), probe(cronDaemon: true, notifDaemon: true), placedBy: "NOTIF_SCHEDULER=embedded")
        #expect(kept.kind == .embedded && kept.why == "embedded holds the reminder (put there with NOTIF_SCHEDULER=embedded; `notif set scheduler cron` moves it)")
    }

    @Test func withNothingRecordedAutoPicksAndANamedChoiceIsUsed() {
        let machine = probe(booted: true, cronDaemon: true)
        let picked = decide(.auto, held: nil, machine)
        #expect(picked.kind == .cron && picked.why == "auto picked cron: the cron daemon runs")
        #expect(decide(.embedded, held: nil, machine).kind == .embedded)
    }

    @Test func thePlacementFileKeepsTheChoiceAndReadsOlderFiles() {
        let placement = SchedulerPlacement(holder: .cron, choice: .systemd)
        #expect(placement.text == "cron\nchoice systemd\n")
        #expect(SchedulerPlacement(parsing: placement.text) == placement)
        // Older notifs wrote only the scheduler: it was picked afresh each run, as auto does.
        #expect(SchedulerPlacement(parsing: "embedded\n") == SchedulerPlacement(holder: .embedded, choice: .auto))
        #expect(SchedulerPlacement(parsing: "cron\nchoice nonsense\n") == SchedulerPlacement(holder: .cron, choice: .auto))
        #expect(SchedulerPlacement(parsing: "anacron\n") == nil && SchedulerPlacement(parsing: "") == nil)
        let overridden = SchedulerPlacement(holder: .embedded, choice: .cron, override: "NOTIF_SCHEDULER=embedded", choicePending: true)
        #expect(overridden.text == "embedded\nchoice cron\noverride NOTIF_SCHEDULER=embedded\npending\n")
        #expect(SchedulerPlacement(parsing: overridden.text) == overridden)
    }

    @Test func eachSchedulerSaysWhetherItCanBeUsedAndWhy() {
        func state(_ kind: SchedulerKind, _ probe: SchedulerProbe) -> SchedulerUsability.State { SchedulerUsability.of(kind, probe: probe).state }
        #expect(state(.systemd, probe(manager: true)) == .ready)
        #expect(state(.systemd, probe(booted: true)) == .waiting)
        #expect(state(.systemd, probe()) == .unusable)
        #expect(state(.cron, probe(cronDaemon: true)) == .ready)
        #expect(state(.cron, probe()) == .waiting, "a cron daemon that is not running now still runs the crontab once it starts")
        #expect(state(.cron, probe(cronDaemon: true, crontab: "u is not in /etc/cron.allow")) == .unusable)
        #expect(SchedulerUsability.of(.cron, probe: probe(crontab: "u is not in /etc/cron.allow")).reason == "u is not in /etc/cron.allow")
        #expect(state(.embedded, probe(notifDaemon: true)) == .ready)
        #expect(state(.embedded, probe(autostart: true)) == .waiting)
        #expect(state(.embedded, probe()) == .unusable)
        #expect(SchedulerUsability.of(.embedded, probe: probe()).reason.contains("`notif daemon --install-autostart`"))
        #expect(SchedulerUsability.all(probe: probe()).map(\.choice) == [.systemd, .cron, .embedded])
        // What entries of one not running yet wait for, said after their time; none otherwise.
        #expect(SchedulerUsability.of(.cron, probe: probe()).once == "once the cron daemon runs")
        #expect(SchedulerUsability.of(.systemd, probe: probe(booted: true)).once == "once your systemd user manager starts at your next login")
        #expect(SchedulerUsability.of(.embedded, probe: probe(autostart: true)).once == "once `notif daemon` starts at your next desktop login")
        #expect([SchedulerUsability.of(.cron, probe: probe(cronDaemon: true)), .of(.embedded, probe: probe())].allSatisfy { $0.once == nil })
    }

    /// One set of words for `status` and the chooser; the one in use says so first.
    @Test func eachStateHasOneLabel() {
        let cron = SchedulerUsability.of(.cron, probe: probe())
        #expect(cron.label(inUse: false) == "usable, not running yet" && cron.label(inUse: true) == "in use, not running yet")
        let embedded = SchedulerUsability.of(.embedded, probe: probe())
        #expect(embedded.label(inUse: false) == "not usable" && embedded.label(inUse: true, forThisRun: true) == "in use for this run, cannot fire")
        let running = SchedulerUsability.of(.cron, probe: probe(cronDaemon: true))
        #expect(running.label(inUse: false) == "usable" && running.label(inUse: true) == "in use")
    }
}

/// The same rules through `apply` and `status`, with the scratch files, the in-memory crontab
/// and systemctl on the scratch directory.
@Suite struct SavedSchedulerChoiceTests {
    func on(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    func holders(_ fixture: ServiceFixture) throws -> [SchedulerKind] {
        try SchedulerKind.allCases.filter { try fixture.service.gateway(for: $0)!.installed()["tips-and-updates"] != nil }
    }

    /// The reproduction: `--scheduler cron set tips-and-updates on`, then a plain run.
    @Test func aPlainRunAfterAnOverrideLeavesTheEntriesWhereTheOverridePutThem() throws {
        var fixture = ServiceFixture()
        fixture.scheduler = .cron
        try on(fixture)
        #expect(try fixture.service.apply().succeeded)
        fixture.scheduler = nil
        // Whatever auto alone would pick now (systemd here), cron can still hold the entry.
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: true, cronDaemonRunning: false, crontabProblem: nil, systemdBooted: true)
        let plain = try fixture.service.apply()
        #expect(plain.succeeded && plain.change == nil && plain.report.result(for: "tips-and-updates") == .unchanged)
        #expect(try holders(fixture) == [.cron])
        let status = fixture.service.status()
        #expect(status.choice.kind == .cron && status.inSync && status.installed == ["tips-and-updates"])
        #expect(fixture.service.json(status)["schedulerChoice"] == .string("auto"))
        #expect(fixture.service.json(status)["scheduler"] == .string("cron"))
    }

    @Test func savingAChoiceMovesTheEntriesAndSaysWhy() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        _ = try fixture.service.apply()
        fixture.scheduler = nil
        try fixture.save { $0.scheduler = .systemd }
        let moved = try fixture.service.apply(choosing: true)
        #expect(moved.succeeded)
        #expect(moved.change == SchedulerChange(from: .cron, to: .systemd, why: "you chose systemd"))
        #expect(try holders(fixture) == [.systemd])
        #expect(try fixture.service.context.state.read(fixture.service.schedulerRecord) == "systemd\nchoice systemd\n")
        #expect(fixture.crontab.current == nil, "the cron block is gone")
        let again = try fixture.service.apply()
        #expect(again.change == nil && again.report.result(for: "tips-and-updates") == .unchanged)
    }

    @Test func choosingTheSavedSchedulerAgainBringsBackEntriesAnOverrideMoved() throws {
        var fixture = ServiceFixture()
        fixture.scheduler = nil
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil, embeddedAutostart: true)
        try on(fixture)
        try fixture.save { $0.scheduler = .cron }
        _ = try fixture.service.apply(choosing: true)
        fixture.scheduler = .embedded
        #expect(try fixture.service.apply().change?.to == .embedded)
        fixture.scheduler = nil
        #expect(try fixture.service.apply().change == nil && holders(fixture) == [.embedded], "a plain run does not undo --scheduler")
        let back = try fixture.service.apply(choosing: true)
        #expect(back.change == SchedulerChange(from: .embedded, to: .cron, why: "you chose cron"))
        #expect(try holders(fixture) == [.cron])
    }
}
