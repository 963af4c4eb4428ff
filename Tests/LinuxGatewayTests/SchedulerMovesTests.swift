import Testing
import SharedLogic
import Storage
@testable import LinuxGateway

/// "Moved the reminder" only when an apply really removed an entry from one scheduler and wrote
/// it on another; with nothing planned, "removed" only when it really removed one.
@Suite struct SchedulerMovesRuleTests {
    let id = "tips-and-updates"

    func report(_ result: ReminderResult) -> ApplyReport { ApplyReport(outcomes: [ReminderOutcome(id: id, result: result)]) }

    func removed(from kind: SchedulerKind) -> SchedulerMove { SchedulerMove(scheduler: kind, report: report(.cancelled)) }

    func made(_ result: ReminderResult, moves: [SchedulerMove], planned: Bool = true, recorded: SchedulerKind? = .cron) -> SchedulerChange? {
        SchedulerChange.made(onto: .embedded, report: report(result), moves: moves, planned: planned ? [id] : [],
                             recorded: recorded, why: "you chose embedded")
    }

    @Test func removedThereAndWrittenHereIsAMove() {
        #expect(made(.installed, moves: [removed(from: .cron)]) == SchedulerChange(from: .cron, to: .embedded, why: "you chose embedded"))
        // Leftovers of a scheduler other than the recorded one count too: they did move.
        #expect(made(.installed, moves: [removed(from: .systemd)])?.from == .systemd)
    }

    /// The trial's case: the recorded holder (cron) held nothing (no crontab at all).
    @Test func aRecordedHolderThatHeldNothingMovesNothing() {
        #expect(made(.installed, moves: []) == nil)
        #expect(made(.installed, moves: [SchedulerMove(scheduler: .cron, report: report(.unchanged))]) == nil)
        // A holder whose program is gone: nothing was removed, its note says why.
        #expect(made(.installed, moves: [SchedulerMove(scheduler: .cron, report: ApplyReport(outcomes: []), note: "crontab is gone")]) == nil)
    }

    @Test func writingWhatWasAlreadyThereOrRemovingOnlyLeftoversIsNoMove() {
        #expect(made(.unchanged, moves: [removed(from: .systemd)]) == nil, "embedded already held it: systemd's was a leftover")
        #expect(made(.installed, moves: [SchedulerMove(scheduler: .cron, report: ApplyReport(outcomes: [ReminderOutcome(id: "old-orphan", result: .cancelled)]))]) == nil,
                "another reminder's entry removed is not this one moved")
    }

    /// The trial's other case: Push Notifications off, the choice changed, nothing installed anywhere.
    @Test func withNothingPlannedOnlyARealRemovalIsSaidAndAsARemoval() {
        #expect(made(.blocked(.masterSwitchOff), moves: [], planned: false) == nil)
        #expect(made(.unchanged, moves: [SchedulerMove(scheduler: .cron, report: report(.unchanged))], planned: false) == nil)
        #expect(made(.blocked(.masterSwitchOff), moves: [removed(from: .cron)], planned: false)
                    == SchedulerChange(from: .cron, to: .embedded, why: "you chose embedded", moved: false))
    }

    @Test func ofSeveralSchedulersThatGaveUpEntriesTheRecordedHolderIsNamed() {
        #expect(made(.installed, moves: [removed(from: .systemd), removed(from: .cron)], recorded: .cron)?.from == .cron)
        #expect(made(.installed, moves: [removed(from: .systemd), removed(from: .cron)], recorded: .systemd)?.from == .systemd)
        #expect(made(.blocked(.masterSwitchOff), moves: [removed(from: .systemd), removed(from: .cron)], planned: false, recorded: .cron)?.from == .cron)
    }
}

/// The same rule through `apply`, with the scratch files, the in-memory crontab and systemctl
/// on the scratch directory.
@Suite struct SchedulerMovesServiceTests {
    func holders(_ fixture: ServiceFixture) throws -> [SchedulerKind] {
        try SchedulerKind.allCases.filter { try fixture.service.gateway(for: $0)!.installed()["tips-and-updates"] != nil }
    }

    /// Cron recorded by an apply that had nothing to install (the user has no crontab), then
    /// `--scheduler embedded set tips-and-updates on`.
    @Test func noCrontabThenAnOverrideSaysNoMove() throws {
        var fixture = ServiceFixture()
        try fixture.save { $0.permission = .granted }
        #expect(try fixture.service.apply().succeeded)
        #expect(fixture.service.recordedScheduler() == .cron && fixture.crontab.current == nil)
        try fixture.save { $0[.tipsAndUpdates] = true }
        fixture.scheduler = .embedded
        let outcome = try fixture.service.apply()
        #expect(outcome.succeeded && outcome.report.result(for: "tips-and-updates") == .installed)
        #expect(outcome.change == nil, "\(String(describing: outcome.change))")
        #expect(fixture.service.recordedScheduler() == .embedded && fixture.crontab.current == nil)
    }

    /// Push Notifications off and the choice changed: nothing is installed, nothing said; with
    /// an entry left on the old holder, its removal is said as a removal.
    @Test func withPushOffAChoiceMovesNothingAndARealRemovalIsSaidAsOne() throws {
        var fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted; $0[.pushNotifications] = false }
        fixture.scheduler = .embedded
        _ = try fixture.service.apply()
        fixture.scheduler = nil
        try fixture.save { $0.scheduler = .cron }
        let chosen = try fixture.service.apply(choosing: true)
        #expect(chosen.succeeded && chosen.change == nil && fixture.service.recordedScheduler() == .cron)

        try fixture.save { $0[.pushNotifications] = true }
        #expect(try fixture.service.apply().change == nil && holders(fixture) == [.cron])
        fixture.scheduler = .embedded
        try fixture.save { $0[.pushNotifications] = false }
        let off = try fixture.service.apply()
        #expect(off.change == SchedulerChange(from: .cron, to: .embedded, why: "--scheduler embedded was given for this run", moved: false))
        #expect(try holders(fixture).isEmpty)
    }

    @Test func aRealMoveIsStillSaid() throws {
        var fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        _ = try fixture.service.apply()
        fixture.scheduler = .embedded
        let moved = try fixture.service.apply()
        #expect(moved.change == SchedulerChange(from: .cron, to: .embedded, why: "--scheduler embedded was given for this run"))
        #expect(try holders(fixture) == [.embedded])
    }
}
