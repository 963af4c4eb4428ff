import Foundation
import Testing
import SharedLogic
import Storage
@testable import LinuxGateway
import TestSupport

/// The systemd gateway's files and its exact `systemctl --user` calls, through the process-runner
/// seam: enable/disable run the real systemctl (file-only, as with no manager), the calls that
/// need a running user manager are answered by `SystemctlDouble`.
@Suite struct SystemdTimerGatewayTests {
    let scratch = Scratch()
    let systemctl: SystemctlDouble
    let runner: RecordingRunner

    init() {
        let systemctl = SystemctlDouble(paths: scratch.paths)
        self.systemctl = systemctl
        runner = RecordingRunner { systemctl.respond($0) }
    }

    func gateway(manager: Bool) -> SystemdTimerGateway {
        SystemdTimerGateway(runner: runner, paths: scratch.paths, owner: testOwner, managerRunning: { manager })
    }

    /// The user manager's directory, whatever XDG_CONFIG_HOME (scratch/config here) says.
    var unitDir: String { scratch.path + "/.config/systemd/user" }
    var timer: String { unitDir + "/notif-tips-and-updates-\(testOwner.tag).timer" }
    var service: String { unitDir + "/notif-tips-and-updates-\(testOwner.tag).service" }
    var link: String { unitDir + "/timers.target.wants/notif-tips-and-updates-\(testOwner.tag).timer" }
    var loginLink: String { unitDir + "/default.target.wants/notif-tips-and-updates-\(testOwner.tag).service" }
    var stamp: String { scratch.path + "/.local/share/systemd/timers/stamp-notif-tips-and-updates-\(testOwner.tag).timer" }
    var offline: [String: String?] { ["SYSTEMD_OFFLINE": "1", "XDG_CONFIG_HOME": scratch.path + "/.config"] }

    func exists(_ path: String) -> Bool { (try? FileStatus.of(path, followLinks: false)) != nil }

    var on: NotificationPreferences { .tipsOnAndAllowed }

    @Test func withoutAManagerInstallWritesEnablesAndStartsNothing() throws {
        let systemd = gateway(manager: false)
        try systemd.install(tipsEntry())
        #expect(runner.calls.map(\.argv) == [["systemctl", "--user", "enable", "notif-tips-and-updates-\(testOwner.tag).timer", "notif-tips-and-updates-\(testOwner.tag).service"]])
        #expect(runner.calls.map(\.environment) == [offline])
        #expect(exists(link), "the real systemctl made the timers.target.wants link")
        #expect(exists(loginLink), "and the default.target.wants link that runs the service at each login")
        #expect(try FileStatus.of(timer)?.mode == 0o644)
        #expect(try String(contentsOfFile: service, encoding: .utf8).contains("ExecStart=/usr/local/bin/notif deliver --catch-up tips-and-updates\n"))
        #expect(try String(contentsOfFile: service, encoding: .utf8).contains("\nConditionFileIsExecutable=/usr/local/bin/notif\n"))
        #expect(try systemd.installed() == ["tips-and-updates": try systemd.render(tipsEntry())])
    }

    @Test func aNoOpApplyStartsNoProcessAndWritesNothing() throws {
        let systemd = gateway(manager: true)
        _ = LocalReminders.apply(on, gateway: systemd, entry: { _ in tipsEntry() })
        let before = runner.calls.count
        let identity = try FileStatus.of(timer)
        let report = LocalReminders.apply(on, gateway: systemd, entry: { _ in tipsEntry() })
        #expect(report.result(for: "tips-and-updates") == .unchanged)
        #expect(runner.calls.count == before)
        #expect(try FileStatus.of(timer) == identity)
    }

    @Test func withAManagerAChangeIsFollowedByReloadAndStart() throws {
        let systemd = gateway(manager: true)
        try systemd.install(tipsEntry())
        #expect(runner.argvs == [
            ["systemctl", "--user", "enable", "notif-tips-and-updates-\(testOwner.tag).timer", "notif-tips-and-updates-\(testOwner.tag).service"],
            ["systemctl", "--user", "daemon-reload"],
            ["systemctl", "--user", "start", "notif-tips-and-updates-\(testOwner.tag).timer"],
        ])
        #expect(runner.calls.map(\.environment) == [offline, [:], [:]])
        // A new binary path rewrites the service only, and reloads again.
        try systemd.install(tipsEntry("/opt/notif"))
        #expect(runner.argvs.count == 6)
        #expect(try String(contentsOfFile: service, encoding: .utf8).contains("ExecStart=/opt/notif deliver --catch-up"))
    }

    @Test func cancelWithoutAManagerDisablesRemovesTheFilesAndTheStamp() throws {
        let systemd = gateway(manager: false)
        try systemd.install(tipsEntry())
        try FileManager.default.createDirectory(atPath: (stamp as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: stamp, contents: Data()))
        try systemd.cancel("tips-and-updates")
        #expect(runner.argvs.dropFirst() == [["systemctl", "--user", "disable", "notif-tips-and-updates-\(testOwner.tag).timer", "notif-tips-and-updates-\(testOwner.tag).service"]])
        #expect(runner.calls.last?.environment == offline)
        for path in [timer, service, link, loginLink, stamp] { #expect(!exists(path), "\(path) is left") }
        #expect(try systemd.installed().isEmpty)
        // Cancelling what is not there starts nothing.
        try systemd.cancel("tips-and-updates")
        #expect(runner.calls.count == 2)
    }

    @Test func cancelWithAManagerStopsCleansDisablesAndReloads() throws {
        let systemd = gateway(manager: true)
        try systemd.install(tipsEntry())
        let before = runner.calls.count
        try systemd.cancel("tips-and-updates")
        #expect(Array(runner.argvs.dropFirst(before)) == [
            ["systemctl", "--user", "stop", "notif-tips-and-updates-\(testOwner.tag).timer", "notif-tips-and-updates-\(testOwner.tag).service"],
            ["systemctl", "--user", "clean", "--what=state", "notif-tips-and-updates-\(testOwner.tag).timer"],
            ["systemctl", "--user", "disable", "notif-tips-and-updates-\(testOwner.tag).timer", "notif-tips-and-updates-\(testOwner.tag).service"],
            ["systemctl", "--user", "daemon-reload"],
        ])
        for path in [timer, service, link] { #expect(!exists(path)) }
    }

    @Test func stoppingAUnitTheManagerNeverLoadedIsFine() throws {
        let systemd = gateway(manager: true)
        try systemd.install(tipsEntry())
        systemctl.setManagerAnswer { argv in
            argv.contains("stop") ? ProcessResult(exitStatus: 5, stderr: Array("Failed to stop notif-tips-and-updates-\(testOwner.tag).timer: Unit notif-tips-and-updates-\(testOwner.tag).timer not loaded.\n".utf8))
                                  : ProcessResult(exitStatus: 0)
        }
        try systemd.cancel("tips-and-updates")
        #expect(!exists(timer))
    }

    @Test func aFailedStartIsReportedInSystemctlsWordsWithWhatIsStillTrue() throws {
        systemctl.setManagerAnswer { argv in
            argv.contains("start") ? ProcessResult(exitStatus: 5, stderr: Array("Failed to start notif-tips-and-updates-\(testOwner.tag).timer: Unit notif-tips-and-updates-\(testOwner.tag).timer not found.\n".utf8))
                                   : ProcessResult(exitStatus: 0)
        }
        let systemd = gateway(manager: true)
        #expect {
            try systemd.install(tipsEntry())
        } throws: { error in
            let text = "\(error)"
            return text.contains("`systemctl --user start notif-tips-and-updates-\(testOwner.tag).timer` failed (exit status 5: Failed to start notif-tips-and-updates-\(testOwner.tag).timer: Unit notif-tips-and-updates-\(testOwner.tag).timer not found.)")
                && text.contains("starts with your next login")
        }
        #expect(exists(timer) && exists(link))
    }

    @Test func aFailedStopRemovesNothing() throws {
        let systemd = gateway(manager: true)
        try systemd.install(tipsEntry())
        systemctl.setManagerAnswer { _ in ProcessResult(exitStatus: 1, stderr: Array("Failed to connect to bus: Permission denied\n".utf8)) }
        #expect { try systemd.cancel("tips-and-updates") } throws: { "\($0)".contains("Permission denied") && "\($0)".contains("nothing was removed") }
        #expect(exists(timer) && exists(service) && exists(link))
    }

    @Test func aMissingSystemctlSaysWhatToInstallAndCancelStillRemovesTheFiles() throws {
        try gateway(manager: false).install(tipsEntry())
        let missing = RecordingRunner { call throws(SpawnError) in throw SpawnError(program: call.argv[0], code: ENOENT) }
        let systemd = SystemdTimerGateway(runner: missing, paths: scratch.paths, owner: testOwner, managerRunning: { false })
        try FileManager.default.removeItem(atPath: timer)
        #expect { try systemd.install(tipsEntry()) } throws: { "\($0)".contains("apt install systemd") }
        try systemd.cancel("tips-and-updates")
        for path in [timer, service, link] { #expect(!exists(path)) }
    }

    @Test func aUnitOfTheSameNameThatNotifDidNotWriteIsLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: unitDir, withIntermediateDirectories: true)
        let mine = "[Timer]\nOnCalendar=hourly\n"
        try mine.write(toFile: timer, atomically: true, encoding: .utf8)
        let systemd = gateway(manager: false)
        #expect(try systemd.installed().isEmpty)
        #expect { try systemd.install(tipsEntry()) } throws: { "\($0)".contains(timer) && "\($0)".contains("not written by notif") }
        try systemd.cancel("tips-and-updates")
        #expect(try String(contentsOfFile: timer, encoding: .utf8) == mine)
    }

    @Test func orphansAndDisabledTimersAreSeenAsNotMatchingThePlan() throws {
        let systemd = gateway(manager: false)
        let orphan = ScheduledEntry(reminder: LocalReminder(id: "retired", title: "Old", body: "", time: DailyTime(hour: 8, minute: 0), preference: .tipsAndUpdates),
                                    command: ["/n", "deliver", "retired"], catchUpCommand: ["/n", "deliver", "--catch-up", "retired"])
        try systemd.install(orphan)
        try systemd.install(tipsEntry())
        try FileManager.default.removeItem(atPath: link)
        let installed = try systemd.installed()
        #expect(installed.keys.sorted() == ["retired", "tips-and-updates"])
        #expect(installed["tips-and-updates"] != (try systemd.render(tipsEntry())))
        let report = LocalReminders.apply(on, gateway: systemd, entry: { _ in tipsEntry() })
        #expect(report.result(for: "tips-and-updates") == .installed && report.result(for: "retired") == .cancelled)
        #expect(exists(link))
        #expect(try systemd.installed().keys.sorted() == ["tips-and-updates"])
    }

    /// Units as an earlier notif wrote them: untagged names, enabled.
    func writeUntaggedUnits() throws {
        try FileManager.default.createDirectory(atPath: unitDir + "/timers.target.wants", withIntermediateDirectories: true)
        try (SystemdUnits.marker + "\n[Timer]\nOnCalendar=*-*-* 09:00:00\nUnit=notif-tips-and-updates.service\n")
            .write(toFile: unitDir + "/notif-tips-and-updates.timer", atomically: true, encoding: .utf8)
        try (SystemdUnits.marker + "\n[Service]\nType=oneshot\nExecStart=/old/notif deliver --catch-up tips-and-updates\n")
            .write(toFile: unitDir + "/notif-tips-and-updates.service", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: unitDir + "/timers.target.wants/notif-tips-and-updates.timer",
                                                   withDestinationPath: unitDir + "/notif-tips-and-updates.timer")
    }

    /// Two configurations of one user write their units side by side in the manager's directory
    /// (whatever their XDG_CONFIG_HOME), and each apply touches only its own.
    @Test func twoConfigurationsKeepTheirOwnUnits() throws {
        let mine = gateway(manager: false)
        let theirs = SystemdTimerGateway(runner: runner, paths: NotifPaths(home: scratch.path, configHome: "/srv/other", stateHome: scratch.path + "/s2"),
                                         owner: otherOwner, managerRunning: { false })
        _ = LocalReminders.apply(on, gateway: mine, entry: { _ in tipsEntry() })
        _ = LocalReminders.apply(on, gateway: theirs, entry: { _ in tipsEntry("/opt/notif") })
        let theirTimer = unitDir + "/notif-tips-and-updates-\(otherOwner.tag).timer"
        for path in [timer, service, link, theirTimer, unitDir + "/timers.target.wants/notif-tips-and-updates-\(otherOwner.tag).timer"] {
            #expect(exists(path), "\(path)")
        }
        #expect(try mine.installed() == ["tips-and-updates": try mine.render(tipsEntry())])
        #expect(try theirs.installed() == ["tips-and-updates": try theirs.render(tipsEntry("/opt/notif"))])
        var off = on
        off[.tipsAndUpdates] = false
        #expect(LocalReminders.apply(off, gateway: theirs, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .cancelled)
        #expect(!exists(theirTimer) && exists(timer) && exists(link))
        #expect(LocalReminders.apply(on, gateway: mine, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .unchanged)
    }

    /// The untagged units of an earlier notif are the default configuration's: its next apply
    /// replaces them with its own (one timer, not two), once; another configuration leaves them.
    @Test func theDefaultConfigurationTakesOverUntaggedUnitsOnce() throws {
        try writeUntaggedUnits()
        let theirs = SystemdTimerGateway(runner: runner, paths: scratch.paths, owner: otherOwner, managerRunning: { false })
        #expect(try theirs.installed().isEmpty)
        _ = LocalReminders.apply(on, gateway: theirs, entry: { _ in tipsEntry() })
        #expect(exists(unitDir + "/notif-tips-and-updates.timer"), "another configuration leaves it")
        let mine = gateway(manager: true)
        #expect(try mine.installed()["tips-and-updates"]?.hasPrefix("(untagged units") == true)
        let before = runner.calls.count
        #expect(LocalReminders.apply(on, gateway: mine, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .installed)
        for old in ["/notif-tips-and-updates.timer", "/notif-tips-and-updates.service", "/timers.target.wants/notif-tips-and-updates.timer"] {
            #expect(!exists(unitDir + old), "\(old) is left")
        }
        #expect(exists(timer) && exists(link))
        #expect(runner.argvs.dropFirst(before).contains(["systemctl", "--user", "stop", "notif-tips-and-updates.timer", "notif-tips-and-updates.service"]))
        // Once: the next apply has nothing to take over and changes nothing.
        let after = runner.calls.count
        #expect(LocalReminders.apply(on, gateway: mine, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .unchanged)
        #expect(runner.calls.count == after)
        // Turned off with untagged units back (a downgrade and upgrade, say): both go.
        try writeUntaggedUnits()
        var off = on
        off[.tipsAndUpdates] = false
        #expect(LocalReminders.apply(off, gateway: mine, entry: { _ in tipsEntry() }).result(for: "tips-and-updates") == .cancelled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: unitDir).filter { $0.hasPrefix("notif-") && !$0.contains(otherOwner.tag) }.isEmpty)
        #expect(exists(unitDir + "/notif-tips-and-updates-\(otherOwner.tag).timer"), "the other configuration's stay")
    }

    /// What `status` reads back from a timer: its calendars (with or without a zone), the zone
    /// the calendars without one count in, the reminder's time in the user's zone, and whether
    /// the units are an earlier notif's.
    @Test func theFiringIsReadFromTheTimersCalendars() throws {
        let systemd = SystemdTimerGateway(runner: runner, paths: scratch.paths, owner: testOwner, systemZone: { systemZone("Europe/Berlin") },
                                          managerRunning: { false })
        let named = try #require(systemd.firing("[Unit]\n[Timer]\nOnCalendar=*-*-* 09:00:00 Asia/Kolkata\nPersistent=true\n",
                                                userZone: systemZone("Asia/Kolkata"), time: DailyTime(hour: 9, minute: 0)))
        #expect(named == EntryFiring(.systemd(calendars: [SystemdCalendar(calendar: "*-*-* 09:00:00", zone: "Asia/Kolkata")], managerZone: "Europe/Berlin"),
                                     wanted: WantedTime(time: DailyTime(hour: 9, minute: 0), zone: "Asia/Kolkata")))
        let two = try #require(systemd.firing(SystemdTimerGateway.untaggedNote + "[Timer]\nOnCalendar=*-*-* 07:00:00\nOnCalendar=*-*-* 08:00:00\n",
                                              userZone: systemZone("Etc/UTC"), time: DailyTime(hour: 9, minute: 0)))
        #expect(two == EntryFiring(.systemd(calendars: [SystemdCalendar(calendar: "*-*-* 07:00:00"), SystemdCalendar(calendar: "*-*-* 08:00:00")],
                                            managerZone: "Europe/Berlin"),
                                   wanted: WantedTime(time: DailyTime(hour: 9, minute: 0), zone: "Etc/UTC"), earlierNotif: true))
        #expect(systemd.firing("[Timer]\nPersistent=true\n", userZone: .utc) == nil, "no calendar, no firing")
    }
}
