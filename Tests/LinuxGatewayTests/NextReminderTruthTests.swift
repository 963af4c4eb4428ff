import Foundation
import SharedLogic
import Storage
import Testing
@testable import LinuxGateway

/// `status`'s next reminder is when the installed entries really show it, and when that is not
/// the reminder's time in the zone notif shows now, both are given with how to bring them together.
@Suite struct NextReminderTruthTests {
    func on(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    /// The built-in scheduler on a UTC machine, the daemon running, the reminder on and its entry
    /// written without TZ at 06:00.
    func builtInEntryWithoutTZ() throws -> ServiceFixture {
        var fixture = ServiceFixture(now: "2026-12-01T06:00:00+00:00")
        fixture.scheduler = .embedded
        fixture.zone = .utc
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedDaemonRunning: true)
        try on(fixture)
        #expect(try fixture.service.apply().succeeded)
        return fixture
    }

    func iso(_ instant: Instant?, _ zone: ZoneRules = .utc) -> String? { instant.map { ISO8601.format($0, in: zone) } }

    /// The case: built-in entries written without TZ (the daemon's zone: the system
    /// zone, UTC here), `status` run with TZ=Asia/Kolkata. The entry shows the reminder at 09:00
    /// UTC, not at 09:00 in Kolkata; `apply` with that TZ brings the two together.
    @Test func aBuiltInEntryWrittenWithoutTZFiresInTheDaemonsZone() throws {
        var fixture = try builtInEntryWithoutTZ()
        fixture.zone = systemZone("Asia/Kolkata")
        fixture.environment["TZ"] = "Asia/Kolkata"
        let status = fixture.service.status()
        #expect(iso(status.nextReminder) == "2026-12-01T09:00:00+00:00", "09:00 in the daemon's zone")
        #expect(iso(status.wantedReminder) == "2026-12-02T03:30:00+00:00", "09:00 in Kolkata, the next one")
        #expect(status.warnings.contains { $0.contains("Wed 2 Dec 09:00 in Asia/Kolkata") && $0.contains("`notif apply` brings them together") },
                "\(status.warnings)")
        #expect(fixture.service.json(status)["wantedReminder"] == .string("2026-12-02T09:00:00+05:30"))
        #expect(fixture.service.json(status)["nextReminder"] == .string("2026-12-01T14:30:00+05:30"))
        // The apply rewrites the entry for Kolkata: one time again.
        #expect(try fixture.service.apply().succeeded)
        let after = fixture.service.status()
        #expect(iso(after.nextReminder) == "2026-12-02T03:30:00+00:00" && after.wantedReminder == nil, "\(after.reminders.next)")
        #expect(!after.warnings.contains { $0.contains("brings them together") })
    }

    /// The trial's case: the daemon runs with TZ=Asia/Kolkata (it records it), the entry was
    /// written without TZ: it fires at 09:00 in Kolkata, which `status` run without TZ says,
    /// with no false alarm when run with the daemon's TZ.
    @Test func aBuiltInEntryWithoutTZFiresInTheRunningDaemonsZone() throws {
        var fixture = try builtInEntryWithoutTZ()
        try fixture.service.context.state.write(StateFiles.daemonZoneFile, "Asia/Kolkata")
        let unset = fixture.service.status()
        #expect(iso(unset.nextReminder) == "2026-12-02T03:30:00+00:00", "09:00 in the daemon's Kolkata")
        // An apply here (no TZ) would write the same entry: the advice names the daemon's TZ (trial 40, D5).
        #expect(unset.warnings.contains { $0.contains("`notif daemon` runs with TZ=Asia/Kolkata, and the entry, written without TZ, fires in that zone") }
                && !unset.warnings.contains { $0.contains("brings them together") }, "\(unset.warnings)")
        fixture.zone = systemZone("Asia/Kolkata")
        fixture.environment["TZ"] = "Asia/Kolkata"
        let status = fixture.service.status()
        #expect(iso(status.nextReminder) == "2026-12-02T03:30:00+00:00" && status.wantedReminder == nil, "\(status.warnings)")
        // A daemon that has stopped says nothing of its zone.
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedDaemonRunning: false)
        #expect(iso(fixture.service.status().nextReminder) != "2026-12-02T03:30:00+00:00")
    }

    /// cron lines written for a user in Berlin (on a UTC machine): their command carries
    /// TZ=Europe/Berlin, so the run that shows the reminder is 09:00 in Berlin, whatever zone
    /// `status` is run in.
    @Test func cronLinesWrittenForAnotherZoneShowItAtNineThere() throws {
        var fixture = ServiceFixture(now: "2026-12-01T06:00:00+00:00")
        fixture.environment["TZ"] = "Europe/Berlin"
        try on(fixture)
        #expect(try fixture.service.apply().succeeded)
        #expect(fixture.crontab.current?.contains("TZ=Europe/Berlin") == true)
        fixture.zone = systemZone("Asia/Kolkata")
        fixture.environment["TZ"] = "Asia/Kolkata"
        let status = fixture.service.status()
        #expect(status.installed == ["tips-and-updates"] && !status.inSync)
        #expect(iso(status.nextReminder) == "2026-12-01T08:00:00+00:00", "09:00 in Berlin")
        #expect(iso(status.wantedReminder) == "2026-12-02T03:30:00+00:00")
    }

    /// An entry none of whose runs comes when the reminder is due (a built-in entry edited to
    /// 08:00: each run is before that day's 09:00) never shows it: no next reminder, and why.
    @Test func anEntryThatNeverComesAtTheReminderTimeGivesNoNextReminder() throws {
        let fixture = try builtInEntryWithoutTZ()
        let directory = EmbeddedScheduler(paths: fixture.scratch.paths, owner: fixture.service.context.configuration).directory
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first)
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8).replacingOccurrences(of: "time=09:00", with: "time=08:00")
        try text.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        let status = fixture.service.status()
        #expect(status.nextReminder == nil && status.reminders.next == .none(.neverShows), "\(status.reminders.next)")
        #expect(status.noReminderReason?.contains("their next run rewrites them, or `notif apply` now") == true)
    }

    /// settings.json that does not parse: status says why, and still what is installed and when
    /// it fires; nothing shows meanwhile (deliver cannot read the settings), and nothing is planned.
    @Test func settingsThatDoNotParseStillShowWhatIsInstalled() throws {
        var fixture = ServiceFixture(now: "2026-12-01T06:00:00+00:00")
        fixture.zone = .utc
        try on(fixture)
        #expect(try fixture.service.apply().succeeded)
        let path = fixture.service.context.store.settingsPath
        try "{\"tipsAndUpdates\": true,}".write(toFile: path, atomically: false, encoding: .utf8)
        let status = fixture.service.status()
        #expect(status.settingsProblem == .invalid(path: path, problem: "line 1, column 24: a comma before } — remove it"))
        #expect(status.installed == ["tips-and-updates"] && status.firing["tips-and-updates"]?.hasPrefix("cron at 09:00") == true,
                "\(status.firing)")
        #expect(!status.inSync && status.reminders.next == .none(.settingsUnreadable))
        let json = fixture.service.json(status)
        #expect(json["preferences"] == .null && json["planned"] == .null && json["installed"] == .array([.string("tips-and-updates")]))
        #expect(json["settingsProblem"] == .string(path + " line 1, column 24: a comma before } — remove it"))
    }
}
