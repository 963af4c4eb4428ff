import Testing
import TestSupport
import SharedLogic
@testable import LinuxGateway

/// Entries that drift out of sync mend themselves when a run looks (`mendEntries`), and a run
/// that finds nothing wrong pays one `crontab -l`.
@Suite struct ReminderServiceMendingTests {
    /// A user in Kolkata (`TZ` set) whose cron lines are in the system zone: the system zone
    /// changes from UTC to Tokyo, so 03:30 is no longer 09:00 in Kolkata. The next run rewrites
    /// the lines for 12:30 Tokyo time; after that a run only lists the crontab.
    @Test func aChangedSystemZoneRewritesCronsLines() throws {
        var fixture = ServiceFixture()
        fixture.zone = systemZone("Asia/Kolkata")
        fixture.environment = ["TZ": "Asia/Kolkata"]
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(try fixture.service.apply().report.result(for: "tips-and-updates") == .installed)
        #expect(fixture.crontab.current?.contains("\n30 3 * * * ") == true, "\(fixture.crontab.current ?? "")")
        var before = fixture.runner.calls.count
        #expect(fixture.service.mendEntries() == nil, "in sync: nothing to mend")
        #expect(fixture.runner.argvs.dropFirst(before) == [["crontab", "-l"]])

        fixture.machineZone = systemZone("Asia/Tokyo")
        let mended = try #require(fixture.service.mendEntries())
        #expect(mended.result(for: "tips-and-updates") == .installed)
        #expect(fixture.crontab.current?.contains("\n30 12 * * * ") == true && fixture.crontab.current?.contains("\n30 3 * * * ") == false,
                "\(fixture.crontab.current ?? "")")
        before = fixture.runner.calls.count
        #expect(fixture.service.mendEntries() == nil)
        #expect(fixture.runner.argvs.dropFirst(before) == [["crontab", "-l"]])
    }

    /// The settings were turned off behind notif's back (edited by hand): the stale entry goes.
    /// Entries of an earlier notif's block (no SHELL and PATH lines) are rewritten.
    @Test func staleAndEarlierEntriesAreRewrittenFromTheSettings() throws {
        let fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        _ = try fixture.service.apply()
        fixture.crontab.replace { $0.replacingOccurrences(of: "SHELL=/bin/sh\nPATH=/usr/bin:/bin\n", with: "") }
        #expect(fixture.service.mendEntries()?.result(for: "tips-and-updates") == .installed)
        #expect(fixture.crontab.current?.contains("SHELL=/bin/sh\n") == true)
        try fixture.save { $0[.tipsAndUpdates] = false }
        #expect(fixture.service.mendEntries()?.result(for: "tips-and-updates") == .cancelled)
        #expect(fixture.crontab.current == nil)
    }

    /// Nothing recorded (no apply has run): nothing is read or written.
    @Test func withoutARecordedSchedulerNothingRuns() throws {
        let fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(fixture.service.mendEntries() == nil)
        #expect(fixture.runner.argvs.isEmpty)
    }
}
