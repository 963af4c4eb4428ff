import Foundation
import SharedLogic
import Storage
import Testing
import TestSupport
@testable import LinuxGateway

/// `status` never gives a time for an entry that cannot fire: its program was removed, its
/// systemd timer has no manager on a machine not started with systemd, or nothing runs the
/// built-in scheduler. It says why, and how to fix it, in the text and in `status --json`.
@Suite struct CannotFireStatusTests {
    func tipsOn(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    /// A program that exists, for an entry, in the fixture's scratch folder.
    func program(_ fixture: ServiceFixture, name: String = "my notif 100%") throws -> String {
        let dir = fixture.scratch.path + "/bin dir"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try writeProgram("#!/bin/sh\n", to: path)
        return path
    }

    @Test(arguments: [SchedulerKind.cron, .systemd])
    func anEntryWhoseProgramWasRemovedCannotFire(_ kind: SchedulerKind) throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        fixture.scheduler = kind
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: true, cronDaemonRunning: true, crontabProblem: nil)
        let path = try program(fixture)
        fixture.executable = path
        try tipsOn(fixture)
        #expect(try fixture.service.apply().succeeded)
        var status = fixture.service.status()
        #expect(status.nextReminder != nil && status.reminders.cannotFire.isEmpty, "\(status.reminders)")
        #expect(status.reminders.installed?["tips-and-updates"]?.program == path, "the program is read back from the entry")
        try FileManager.default.removeItem(atPath: path)
        // The notif that asks is another one (the installed one, say): the entry names the removed program.
        fixture.executable = ServiceFixture.installedNotif
        status = fixture.service.status()
        #expect(status.nextReminder == nil)
        #expect(status.reminders.cannotFire == ["tips-and-updates": .programMissing(path)])
        #expect(status.noReminderReason?.hasPrefix("cannot fire: its program") == true, "\(status.noReminderReason ?? "")")
        #expect(status.noReminderReason?.contains("`notif apply`") == true)
        #expect(status.firing["tips-and-updates"]?.hasPrefix("cannot fire: ") == true, "\(status.firing)")
        let json = fixture.service.json(status)
        #expect(json["nextReminder"] == .null)
        #expect(json["cannotFire"]?["tips-and-updates"]?["reason"] == .string("programMissing"))
        #expect(json["firing"]?["tips-and-updates"] == nil, "no firing time for an entry that cannot fire")
    }

    @Test func systemdTimersWithoutSystemdCannotFire() throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        fixture.scheduler = .systemd
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, systemdBooted: false)
        try tipsOn(fixture)
        #expect(try fixture.service.apply().succeeded)
        let status = fixture.service.status()
        #expect(status.inSync && status.nextReminder == nil)
        #expect(status.reminders.next == .none(.cannotFire(.noSystemd)))
        #expect(status.noReminderReason?.contains("not started with systemd") == true && status.noReminderReason?.contains("notif set scheduler") == true)
        #expect(status.schedulerState?.contains("cannot fire") == true)
        #expect(fixture.service.json(status)["cannotFire"]?["tips-and-updates"]?["reason"] == .string("noSystemd"))
        // Started with systemd, the timer waits for the manager at the next login: it fires then.
        fixture.probe.systemdBooted = true
        #expect(fixture.service.status().nextReminder != nil)
    }

    @Test func builtInEntriesWithoutTheDaemonCannotFire() throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        fixture.scheduler = .embedded
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)
        try tipsOn(fixture)
        #expect(try fixture.service.apply().succeeded)
        var status = fixture.service.status()
        #expect(status.nextReminder == nil && status.reminders.next == .none(.cannotFire(.daemonNotRunning)))
        #expect(status.noReminderReason?.contains("start `notif daemon`") == true)
        #expect(status.firing["tips-and-updates"]?.hasPrefix("cannot fire: built-in entries fire only while `notif daemon` runs") == true)
        fixture.probe.embeddedDaemonRunning = true
        status = fixture.service.status()
        #expect(status.nextReminder != nil && status.firing["tips-and-updates"]?.hasPrefix("notif daemon at 09:00") == true)
        // Its autostart entry starts it at the next login: entries wait, they do not count as dead.
        fixture.probe.embeddedDaemonRunning = false
        fixture.probe.embeddedAutostart = true
        #expect(fixture.service.status().nextReminder != nil)
    }
}

/// notif's program read back from the lines `CronCommand` writes, whatever its path holds.
@Suite struct CronProgramTests {
    @Test(arguments: ["/usr/bin/notif", "/tmp/my bin 100%/notif", "/opt/it's/no\\tif", "/a=b/notif", "/x/%%\\%/notif"])
    func theGuardedProgramComesBack(_ path: String) throws {
        let line = "0 9 * * * " + (try CronCommand.guarded(["/usr/bin/env", "TZ=Asia/Tokyo", path, "deliver", "--quiet", "x"], program: path))
        #expect(CronCommand.program(inLine: line) == path, "\(line)")
        #expect(CronCommand.program(inLine: "@reboot " + (try CronCommand.render([path, "deliver"]))) == path)
        // An unguarded line of an earlier notif (env takes a word holding `=` for an assignment,
        // so notif never wrote such a path after env without a trampoline).
        if !path.contains("=") {
            #expect(CronCommand.program(inLine: "0 9 * * * " + (try CronCommand.render(["/usr/bin/env", "HOME=/h", path, "deliver"]))) == path)
        }
    }
}
