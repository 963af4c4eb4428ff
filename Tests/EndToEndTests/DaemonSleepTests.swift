import Foundation
import TestSupport
import Testing

/// `notif daemon` sleeps until its next reminder and nothing else wakes it: one poll with no
/// timeout, on an absolute timerfd (cancelled by clock changes) and inotify; edits and zone
/// changes are acted on at once rather than at the next minute's look.
@Suite struct DaemonSleepTests {
    func start(_ sandbox: Sandbox, _ env: [String: String], binary: String = NotifBinary.path) throws -> (DaemonProcess, pid_t) {
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        let daemon = try DaemonProcess([binary, "daemon"], environment: sandbox.environment(env), outputIn: sandbox.path)
        guard daemon.waitUntilRunning(), let pid = daemon.daemonPID else { throw E2EFailure("no daemon: \(daemon.output)") }
        return (daemon, pid)
    }

    /// The daemon's system call while it sleeps: `poll` (x86-64: 7; elsewhere ppoll, 73 or 271)
    /// with no timeout.
    func blockedForever(_ pid: pid_t) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return false }
        let fields = text.split(separator: " ")
        guard fields.count > 3 else { return false }
        switch fields[0] {
        case "7": return fields[3] == "0xffffffff" || fields[3] == "0xffffffffffffffff"
        case "73", "271": return fields[3] == "0x0"
        default: return false
        }
    }

    func syscall(_ pid: pid_t) -> String? { try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) }

    func fdInfo(_ pid: pid_t, containing marker: String) -> String? {
        let dir = "/proc/\(pid)/fdinfo"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            if let text = try? String(contentsOfFile: dir + "/" + name, encoding: .utf8), text.contains(marker) { return text }
        }
        return nil
    }

    func voluntarySwitches(_ pid: pid_t) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            .flatMap { Int($0.split(separator: "\t").last ?? "") }
    }

    @Test(.hangGuard)
    func anIdleDaemonSleepsInOnePollOnAnAbsoluteTimerUntilNine() throws {
        let sandbox = Sandbox()
        let (daemon, pid) = try start(sandbox, ["TZ": "Europe/Berlin"])
        #expect(waitUntil(10) { blockedForever(pid) }, "not blocked in poll without a timeout: \(String(describing: syscall(pid)))")
        // The timer: absolute and cancelled on clock changes (flags 03), due at the next 09:00 in Berlin.
        let timer = try #require(fdInfo(pid, containing: "clockid:"))
        #expect(timer.contains("clockid: 0\n") && timer.contains("settime flags: 03\n"), "\(timer)")
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let nine = berlin.nextDate(after: Date(), matching: DateComponents(hour: 9, minute: 0, second: 0), matchingPolicy: .nextTime)!
        let remaining = timer.split(separator: "\n").first { $0.hasPrefix("it_value:") }
            .flatMap { Double($0.dropFirst("it_value: (".count).prefix { $0 != "," }) }
        #expect(remaining.map { abs($0 - nine.timeIntervalSinceNow) < 5 } == true, "\(timer) vs \(nine)")
        // Watches: the zone's directory, the settings' directory, the schedule's, and the state
        // directory for the waiters' locks.
        let notices = try #require(fdInfo(pid, containing: "inotify wd:"))
        #expect(notices.components(separatedBy: "inotify wd:").count - 1 == 4, "\(notices)")
        // And it stays asleep: no voluntary context switch at all for two seconds (the old loop
        // woke every minute; `make bench` measures ten minutes).
        let (before, after) = withClockLock {
            let before = voluntarySwitches(pid)
            Thread.sleep(forTimeInterval: 2)
            return (before, voluntarySwitches(pid))
        }
        #expect(before != nil && after == before, "woke while idle: \(String(describing: before)) → \(String(describing: after))")
        withExtendedLifetime(daemon) {}
    }

    @Test(.hangGuard)
    func aHandEditedSettingsFileIsActedOnAtOnce() throws {
        let sandbox = Sandbox()
        let (daemon, pid) = try start(sandbox, ["TZ": "Europe/Berlin"])
        // The entry's file (its name carries the configuration's tag).
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.stateDir + "/embedded")) ?? []
        let entry = sandbox.stateDir + "/embedded/" + (try #require(names.first { $0.hasPrefix("tips-and-updates") }, "no entry in \(names)"))
        #expect(FileManager.default.fileExists(atPath: entry))
        #expect(waitUntil(10) { blockedForever(pid) })
        // An editor's save: a new file renamed over the old one.
        let saved: String = try #require(sandbox.read(sandbox.settingsPath))
        let text = saved.replacingOccurrences(of: "\"tipsAndUpdates\": true", with: "\"tipsAndUpdates\": false")
        try sandbox.write(text, to: sandbox.settingsPath + ".new")
        #expect(rename(sandbox.settingsPath + ".new", sandbox.settingsPath) == 0)
        #expect(waitUntil(5) { !FileManager.default.fileExists(atPath: entry) }, "the entry stayed: \(daemon.output)")
        #expect(waitUntil(5) { daemon.output.contains("settings changed: tips-and-updates cancelled") }, "\(daemon.output)")
    }

    /// The static release binary with TZ naming a zone file: the file is replaced by one whose
    /// local time is 08:59:57 (it was 03:00), the daemon notices at once, and fires at 09:00 there.
    @Test(.hangGuard)
    func aZoneReplacedUnderTheDaemonMovesTheReminderToNineThere() throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.release()
        let zone = sandbox.path + "/zone"
        // Before 09:00 there, so the start has nothing to catch up; the later zone on the same day.
        try ZoneFile.write(offset: ZoneFile.offset(makingLocalTime: 3, 0, 0, leavingRoomFor: 6 * 3600), to: zone)
        let service = try FakeNotificationService(config: ["close_after": 0.1])
        let env = ["TZ": zone, "DBUS_SESSION_BUS_ADDRESS": service.busAddress]
        let (daemon, pid) = try start(sandbox, env, binary: binary)
        #expect(waitUntil(10) { blockedForever(pid) })
        let log = { sandbox.read(sandbox.stateDir + "/deliveries.jsonl") ?? "" }
        let atStart = log()
        // (Seconds in the offset put 09:00 three seconds away; times in the log show the offset
        // in whole minutes, so they are off by those seconds: the test's own clock judges.)
        try ZoneFile.write(offset: ZoneFile.offset(makingLocalTime: 8, 59, 57), to: zone)
        let nine = Date().addingTimeInterval(3)
        #expect(waitUntil(20) { log().contains("\"kind\":\"scheduled\"") }, "\(daemon.output)\n\(log())")
        let shown = Date()
        let records = String(log().dropFirst(atStart.count)).split(separator: "\n").map(String.init)
        // The zone change woke it before 09:00 there: no attempt, no record; then 09:00, not before.
        #expect(records.count == 1 && records.last?.contains("\"outcome\":\"delivered\"") == true, "\(records)")
        #expect(shown.timeIntervalSince(nine) > -1.5, "delivered \(nine.timeIntervalSince(shown)) s before 09:00")
        #expect(daemon.output.contains("(scheduled, zone change): not due yet: 08:59"), "\(daemon.output)")
        #expect(service.notifications().count == 1)
    }
}
