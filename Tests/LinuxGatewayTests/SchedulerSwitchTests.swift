import Foundation
import Testing
import SharedLogic
import Storage
@testable import LinuxGateway

/// Moving notif's entries between schedulers: after every apply exactly one scheduler holds them.
@Suite struct SchedulerSwitchTests {
    func on(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    /// Which schedulers hold an entry for tips-and-updates.
    func holders(_ fixture: ServiceFixture) throws -> [SchedulerKind] {
        try SchedulerKind.allCases.filter { kind in
            try fixture.service.gateway(for: kind)!.installed()["tips-and-updates"] != nil
        }
    }

    func recorded(_ fixture: ServiceFixture) -> SchedulerKind? { fixture.service.recordedScheduler() }

    @Test func cronToEmbeddedToSystemdToCronLeavesExactlyOneEntryEachTime() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        for kind in [SchedulerKind.cron, .embedded, .systemd, .cron, .systemd, .embedded] {
            fixture.scheduler = kind
            let outcome = try fixture.service.apply()
            #expect(outcome.succeeded, "\(kind): \(outcome.report) \(outcome.moves.map(\.report))")
            #expect(try holders(fixture) == [kind])
            #expect(recorded(fixture) == kind)
        }
        #expect(fixture.crontab.current == nil, "the user had no crontab, so none is left")
    }

    /// Two configurations sharing a state directory (another XDG_CONFIG_HOME only) each record
    /// their own scheduler, and moving one's entries never strands or removes the other's.
    @Test func configurationsSharingAStateDirectoryMoveOnlyTheirOwnEntries() throws {
        var first = ServiceFixture()
        try on(first)
        first.scheduler = .cron
        #expect(try first.service.apply().succeeded)
        var second = first
        second.configHome = first.scratch.path + "/other config"
        try second.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        second.scheduler = .embedded
        #expect(try second.service.apply().succeeded)
        #expect(recorded(first) == .cron && recorded(second) == .embedded)
        #expect(first.service.schedulerRecord != second.service.schedulerRecord)
        // The second moves to cron, then to systemd: the first's cron entry stays throughout.
        for kind in [SchedulerKind.cron, .systemd] {
            second.scheduler = kind
            #expect(try second.service.apply().succeeded)
            #expect(try holders(second) == [kind], "\(kind)")
            #expect(try holders(first) == [.cron], "\(kind)")
        }
        #expect(recorded(first) == .cron && recorded(second) == .systemd)
        #expect(first.crontab.current?.components(separatedBy: "# BEGIN notif managed block").count == 2)
    }

    @Test func aNoOpApplyOnSystemdStartsNoProcessEvenWithTheLeftoverChecks() throws {
        var fixture = ServiceFixture()
        fixture.scheduler = .systemd
        try on(fixture)
        _ = try fixture.service.apply()
        let calls = fixture.runner.calls.count
        let outcome = try fixture.service.apply()
        #expect(outcome.report.result(for: "tips-and-updates") == .unchanged && outcome.moves.isEmpty)
        #expect(fixture.runner.calls.count == calls)
    }

    /// No `crontab` program does not mean no cron daemon: the block it cannot remove may still
    /// fire, so the move is a failure, retried once crontab is back.
    @Test func movingOffCronWithoutTheCrontabProgramFailsAndIsRetried() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        _ = try fixture.service.apply()
        fixture.crontabMissing.set()
        fixture.scheduler = .embedded
        let outcome = try fixture.service.apply()
        #expect(!outcome.succeeded && outcome.mayStillFire)
        #expect(outcome.moves.first?.report.failures.first.map { "\($0.result)".contains("crontab is not installed") } == true)
        #expect(recorded(fixture) == .cron, "kept, so the next apply retries")
        #expect(fixture.crontab.current?.contains("deliver --quiet tips-and-updates") == true)
        fixture.crontabMissing.set(false)
        #expect(try fixture.service.apply().succeeded)
        #expect(try holders(fixture) == [.embedded] && recorded(fixture) == .embedded)
    }

    @Test func whenTheOldSchedulerFailsTheNextApplyRetriesTheMove() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        _ = try fixture.service.apply()
        fixture.crontab.breakWith(ProcessResult(exitStatus: 1, stderr: Array("crontabs/tester: Permission denied\n".utf8)))
        fixture.scheduler = .embedded
        let failed = try fixture.service.apply()
        #expect(!failed.succeeded)
        #expect(failed.moves.flatMap(\.report.failures).first.map { "\($0.result)".contains("Permission denied") } == true)
        #expect(recorded(fixture) == .cron, "kept, so the next apply tries again")
        #expect(try EmbeddedScheduler(paths: fixture.scratch.paths, owner: fixture.service.context.configuration).installed().keys.sorted() == ["tips-and-updates"])
        fixture.crontab.breakWith(nil)
        let retried = try fixture.service.apply()
        #expect(retried.succeeded && recorded(fixture) == .embedded)
        #expect(try holders(fixture) == [.embedded])
    }

    @Test func whenTheNewSchedulerFailsTheOldEntriesStay() throws {
        var fixture = ServiceFixture()
        fixture.scheduler = .embedded
        try on(fixture)
        _ = try fixture.service.apply()
        fixture.crontab.breakWith(ProcessResult(exitStatus: 1, stderr: Array("You (tester) are not allowed to use this program (crontab)\n".utf8)))
        fixture.scheduler = .cron
        let outcome = try fixture.service.apply()
        #expect(!outcome.succeeded && outcome.moves.isEmpty)
        #expect(try EmbeddedScheduler(paths: fixture.scratch.paths, owner: fixture.service.context.configuration).installed().keys.sorted() == ["tips-and-updates"])
        #expect(recorded(fixture) == .embedded)
    }

    @Test func leftoversOnAFileBasedSchedulerAreSweptEvenWhenNotRecorded() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        fixture.scheduler = .embedded
        _ = try fixture.service.apply()
        try fixture.service.context.state.remove(fixture.service.schedulerRecord)
        fixture.scheduler = .cron
        let outcome = try fixture.service.apply()
        #expect(outcome.succeeded && outcome.moves.map(\.scheduler) == [.embedded])
        #expect(try holders(fixture) == [.cron])
    }

    @Test func turningOffWhileMovingCancelsEverywhere() throws {
        var fixture = ServiceFixture()
        try on(fixture)
        _ = try fixture.service.apply()
        try fixture.save { $0[.tipsAndUpdates] = false }
        fixture.scheduler = .systemd
        #expect(try fixture.service.apply().succeeded)
        #expect(try holders(fixture).isEmpty)
    }
}
