import Foundation
import Testing
import TestSupport

/// A session bus of its own for a test (a dbus-daemon listening at a path), with no notification
/// server until the test starts one, run as `user` (root when nil). `environment` is what
/// the bus itself runs with (a graphical session's bus has its DISPLAY), and `services` the
/// directory of activation files it reads (none by default). `at`: listen where another bus
/// listens already (dbus-daemon replaces the socket file; the other bus lives on).
final class BareBus {
    let socket: String
    var address: String { "unix:path=\(socket)" }
    private let process: BackgroundProcess
    private let config: String

    init(user: TestUser? = nil, environment: [String: String] = [:], services: String? = nil, at path: String? = nil) throws {
        let name = path ?? "/tmp/notif-e2e-bus-" + UUID().uuidString.prefix(8).lowercased()
        let before = path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.systemFileNumber] as? Int }
        socket = name
        config = name + (path == nil ? "" : "-" + UUID().uuidString.prefix(4)) + ".conf"
        let servicedir = services.map { "<servicedir>\($0)</servicedir>" } ?? ""
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:path=\(name)</listen>\(servicedir)
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        let env = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let daemon = ["/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" }
            + ["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork"]
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0.name, "--"] + daemon } ?? daemon
        process = try BackgroundProcess(argv, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: name + ".log")
        guard waitUntil(10, { (try? FileManager.default.attributesOfItem(atPath: name)[.systemFileNumber] as? Int).map { $0 != before } ?? false }) else {
            throw E2EFailure("no bus at \(name)")
        }
    }

    deinit {
        kill(process.pid, SIGKILL)
        for file in [socket, config, socket + ".log"] { unlink(file) }
    }
}

/// The reminder reaches the person when the desktop's notification service comes late: with real
/// schedulers and the release binary, 09:00 reached by zone shift, the notification service
/// started seconds after, the reminder is shown once, at once, and its record says late and why;
/// a day with no service at all is recorded missed; a run outside the graphical session never has
/// the bus start a server, a run inside it (or with a display in the user manager's environment)
/// does. Several runs of the same day (a cron line, the daemon, more `deliver`s) show it once.
@Suite(.enabled(if: isRoot, "needs root for throwaway users, cron and user managers"))
struct WaitingDeliveryTests {
    /// Real cron (in a namespace of its own) at the user's 09:00; no notification service on the
    /// user's bus then, one started seconds later.
    @Test(.hangGuard)
    func cronShowsItOnceWhenTheServiceComesSecondsAfterNine() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let user = try TestUser.make("notif-trwait-cron")
        defer { deleteUser(user) }
        let bus = try BareBus(user: user)
        let system = try ZonedSystem(zone: "Etc/UTC")
        let (nine, at) = ZoneShift.nineAtTheNextMinute(lead: 30)
        // What a notif run inside the session has: its bus (recorded for cron's runs by `set`).
        let env = ["NOTIF_SCHEDULER": "cron", "TZ": nine, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        #expect(try system.run(as: user, [binary, "permission", "grant"], env).status == 0)
        #expect(try system.run(as: user, [binary, "set", "tips-and-updates", "on"], env).status == 0)
        try system.startCron(bootJobs: false)
        let waited = await poll(for: at.timeIntervalSinceNow + 30) { DeliveryLine.all(of: user).contains { $0.outcome == "waiting" } }
        #expect(waited, "cron's run did not wait: \(DeliveryLine.all(of: user))")
        let again = try system.run(as: user, [binary, "deliver", "tips-and-updates"], env)
        #expect(again.stdout.contains("a waiter already waits"), "\(again)")
        // status says today's is waiting, not tomorrow's time.
        let status = try system.run(as: user, [binary, "status"], env)
        #expect(status.stdout.contains("Next reminder:      today's, waiting since 09:00 for a notification service: it is sent as soon as one comes"),
                "\(status)")
        let json = try system.run(as: user, [binary, "status", "--json"], env)
        #expect(json.stdout.contains("\"nextReminder\": null") && json.stdout.contains("\"nextReminderWaiting\": \"") && json.stdout.contains("\"waiting\": true"),
                "\(json.stdout)")
        // The desktop's server comes some seconds after 09:00.
        while Date() < at.addingTimeInterval(3) { usleep(50_000) }
        let service = try FakeNotificationService(config: ["close_after": 0.2], user: user, bus: bus.address)
        #expect(await poll(for: 20) { service.notifications().count == 1 }, "not shown when the service came: \(DeliveryLine.all(of: user))")
        // The waiter records it once the service has answered: a moment after the service has it.
        _ = await poll(for: 10) { DeliveryLine.all(of: user).count == 2 }
        let lines = DeliveryLine.all(of: user)
        #expect(lines.map(\.outcome) == ["waiting", "delivered"], "\(lines)")
        #expect(lines.last?.detail.contains(" late: no notification service until then; accepted by the notification service through the recorded session as notification 1") == true, "\(lines)")
        #expect(try system.run(as: user, [binary, "deliver", "tips-and-updates"], env).stdout.contains("already sent today"))
        #expect(service.notifications().count == 1)
        withExtendedLifetime(system) {}
    }

    /// The live systemd user manager's timer at 09:00; the service ends at once, its waiter (in a
    /// scope of its own) waits on; the notification service comes seconds later.
    @Test(.hangGuard)
    func systemdShowsItOnceWhenTheServiceComesSecondsAfterNine() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let user = try TestUser.make("notif-trwait-sd")
        defer { deleteUser(user) }
        let zone = try ShiftedZone(nineOClockIn: 20)
        let manager = try LiveUserManager(user: user, zone: zone.name)
        #expect(try manager.run([binary, "permission", "grant"]).status == 0)
        let on = try manager.run([binary, "set", "tips-and-updates", "on"])
        #expect(on.status == 0 && on.stdout.contains("with systemd"), "\(on)")
        let waited = await poll(for: zone.secondsUntilNine + 30) { DeliveryLine.all(of: user).contains { $0.outcome == "waiting" } }
        #expect(waited, "the timer's run did not wait: \(DeliveryLine.all(of: user))\n\(manager.output)")
        let units = user.home + "/.config/systemd/user"
        let service = try #require(((try? FileManager.default.contentsOfDirectory(atPath: units)) ?? []).first { $0.hasSuffix(".service") })
        #expect(try waitUntil(20) { try manager.systemctl(["show", "-p", "ActiveState", service]).stdout == "ActiveState=inactive\n" },
                "the service did not end")
        // The desktop's server comes some seconds after 09:00.
        while Date() < zone.nine.addingTimeInterval(3) { usleep(50_000) }
        let server = try FakeNotificationService(config: ["close_after": 0.2], user: user, bus: manager.busAddress)
        #expect(await poll(for: 20) { server.notifications().count == 1 }, "the waiter died with the service: \(DeliveryLine.all(of: user))")
        _ = await poll(for: 10) { DeliveryLine.all(of: user).count == 2 }
        let lines = DeliveryLine.all(of: user)
        #expect(lines.map(\.outcome) == ["waiting", "delivered"], "\(lines)")
        // The manager gives its services the user bus: the records name it so, not "this session".
        #expect(lines.first?.detail.contains("the user bus: no notification service runs") == true, "\(lines)")
        #expect(lines.last?.detail.contains(" late: no notification service until then; accepted by the notification service through the user bus as notification 1") == true, "\(lines)")
    }

    /// Tips & Updates on under the built-in scheduler, a bus with no notification service, and
    /// `notif daemon` running in a zone whose 09:00 comes at `at`, `lead` seconds or more away.
    func daemonBeforeNine(lead: Int) throws -> (sandbox: Sandbox, binary: String, bus: BareBus, at: Date, env: [String: String], daemon: DaemonProcess) {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let bus = try BareBus()
        let (nine, at) = ZoneShift.nineAtTheNextMinute(lead: lead)
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": nine, "DBUS_SESSION_BUS_ADDRESS": bus.address]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        let daemon = try DaemonProcess([binary, "daemon"], environment: sandbox.environment(env), outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        return (sandbox, binary, bus, at, env, daemon)
    }

    /// `notif daemon` at 09:00, a built-in entry; meanwhile more runs for the same day (a
    /// `deliver`, a `deliver --catch-up`, as a cron line and its `@reboot` line would run, all at
    /// once): one waits, the others do nothing; the service comes: shown once.
    @Test(.hangGuard)
    func theDaemonAndOtherRunsOfTheDayShowItOnceWhenTheServiceComes() async throws {
        let (sandbox, binary, bus, at, env, daemon) = try daemonBeforeNine(lead: 20)
        // The other runs start with it at 09:00.
        while Date() < at { usleep(20_000) }
        let others = try (0..<3).map { i in
            try DaemonProcess([binary, "deliver"] + (i == 2 ? ["--catch-up"] : []) + ["tips-and-updates"],
                              environment: sandbox.environment(env), outputIn: sandbox.path)
        }
        let log = { DeliveryLine.all(of: sandbox) }
        #expect(await poll(for: 30) { log().contains { $0.outcome == "waiting" } && others.allSatisfy { $0.hasExited } }, "\(log())\n\(daemon.output)")
        #expect(log().map(\.outcome) == ["waiting"], "one waits, the others do nothing: \(log())")
        #expect(Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home").count == 1)
        let service = try FakeNotificationService(config: ["close_after": 0.2], bus: bus.address)
        #expect(await poll(for: 20) { log().count == 2 }, "not shown when the service came: \(log())")
        #expect(log().map(\.outcome) == ["waiting", "delivered"] && service.notifications().count == 1, "\(log())")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// `notif daemon` at 09:00 with no service: its waiter is stopped (SIGTERM, as a user might),
    /// then the next one killed (SIGKILL: nothing is recorded). The daemon sends a new waiter
    /// each time, and when the service comes the reminder is shown once. (Ten minutes: in a full
    /// run, other tests can keep this one's polls from running for minutes.)
    @Test(.hangGuard)
    func theDaemonSendsANewWaiterWhenOneIsKilled() async throws {
        let (sandbox, binary, bus, at, env, daemon) = try daemonBeforeNine(lead: 15)
        let log = { DeliveryLine.all(of: sandbox) }
        let waiters = { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home") }
        #expect(await poll(for: at.timeIntervalSinceNow + 30) { waiters().count == 1 && log().map(\.outcome) == ["waiting"] },
                "\(log())\n\(daemon.output)\n\(Self.processes(waiters() + [daemon.daemonPID].compactMap { $0 }, lock: sandbox.stateDir + "/wait-tips-and-updates.lock"))\nnine at \(Int(at.timeIntervalSince1970))")
        var previous = waiters()
        for signal in [SIGTERM, SIGKILL] {
            for pid in previous { kill(pid, signal) }
            // A new waiter, within the daemon's pause between two tries (a minute).
            #expect(await poll(for: 80) { let now = waiters(); return now.count == 1 && now != previous && log().last?.outcome == "waiting" },
                    "no new waiter after signal \(signal): \(log())\n\(daemon.output)\n\(Self.processes(previous + waiters() + [daemon.daemonPID].compactMap { $0 }, lock: sandbox.stateDir + "/wait-tips-and-updates.lock"))")
            previous = waiters()
        }
        // The third waiter waits; status counts the wait from the day's first, as the late record will.
        let json = try EndToEndTests.run([binary, "status", "--json"], environment: sandbox.environment(env)).stdout
        let since = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["nextReminderWaiting"] as? String
        #expect(since.flatMap(ISO8601DateFormatter().date(from:)) == log().first?.time, "\(json)\n\(log())")
        let service = try FakeNotificationService(config: ["close_after": 0.2], bus: bus.address)
        #expect(await poll(for: 20) { log().contains { $0.outcome == "delivered" } }, "not shown when the service came: \(log())\n\(daemon.output)")
        #expect(log().filter { $0.outcome == "delivered" }.count == 1 && service.notifications().count == 1, "\(log())")
        #expect(daemon.output.components(separatedBy: " waiting (scheduled, due, not sent, no waiter)").count == 3, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// For a failure's message: each process's state and where it sleeps, and whether `lock` is held.
    static func processes(_ pids: [pid_t], lock: String) -> String {
        let lines = pids.map { pid in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "gone"
            let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? "gone"
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "?"
            // The daemon's timer and watches as the kernel holds them, and the syscall it is in.
            let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).sorted().map { fd in
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?"
                let info = target.contains("timerfd") || target.contains("inotify")
                    ? " " + ((try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? "").replacing("\n", with: " | ") : ""
                return "    fd \(fd) -> \(target)\(info)"
            }
            let syscall = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? "?"
            let stack = (try? String(contentsOfFile: "/proc/\(pid)/stack", encoding: .utf8)) ?? "?"
            return (["pid \(pid): \(state), in \(wchan), syscall \(syscall)", "  stack: " + stack.replacing("\n", with: " | ")]
                + descriptors).joined(separator: "\n")
        }
        let fd = open(lock, O_RDONLY)
        defer { if fd >= 0 { close(fd) } }
        let held = fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0
        return (lines + ["wait lock held: \(held); now \(Int(Date().timeIntervalSince1970))"]).joined(separator: "\n")
    }

    /// Tips & Updates on since yesterday under the built-in scheduler, 09:01 in the zone given,
    /// and a bus with no notification service: a run now is due.
    func dueNow() throws -> (sandbox: Sandbox, binary: String, bus: BareBus, env: [String: String]) {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let bus = try BareBus()
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 1), "DBUS_SESSION_BUS_ADDRESS": bus.address]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        return (sandbox, binary, bus, env)
    }

    /// A service that answers `Notify` only after 7 s (past notif's 5 s): the call timed out,
    /// but the service takes it. The waiter awaits that answer and never sends another: one
    /// notification, recorded delivered once (REPORT-26 B1: a new one went every 7 s all day).
    @Test(.hangGuard)
    func aSlowServiceGetsTheReminderOnce() async throws {
        let (sandbox, binary, bus, env) = try dueNow()
        let service = try FakeNotificationService(config: ["notify_delay": 7, "close_after": 60], bus: bus.address)
        // The shipped program, and its waiter.
        let run = try EndToEndTests.run([binary, "deliver", "tips-and-updates"], environment: sandbox.environment(env))
        #expect(run.status == 0 && run.stdout.contains("did not answer in time"), "\(run)")
        let log = { DeliveryLine.all(of: sandbox) }
        #expect(await poll(for: 40) { log().contains { $0.outcome == "delivered" } }, "\(log())")
        // Long enough for several more tries, had there been any.
        _ = await poll(for: 25) { service.notifications().count > 1 }
        #expect(service.notifications().count == 1, "\(service.notifications())")
        #expect(log().filter { $0.outcome == "delivered" }.count == 1, "\(log())")
        for pid in Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home") { kill(pid, SIGTERM) }
    }

    /// Its waiter killed with no scheduler run to follow (cron's case): `status` says today's is
    /// due and not sent, and what sends it, before tomorrow's time (REPORT-26 B6).
    @Test(.hangGuard)
    func statusSaysTodaysIsOwedWhenItsWaiterIsGone() async throws {
        let (sandbox, binary, bus, env) = try dueNow()
        let run = try EndToEndTests.run([binary, "deliver", "tips-and-updates"], environment: sandbox.environment(env))
        #expect(run.stdout.contains("waiting: "), "\(run)")
        let waiters = { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home") }
        for pid in waiters() { kill(pid, SIGKILL) }
        // A killed process leaves /proc's command line a moment before its lock: poll for the words.
        let owed = "Next reminder:      today's is due and not sent, and nothing waits to send it: `notif deliver --catch-up tips-and-updates` sends it now; then "
        var status = ""
        #expect(await poll(for: 10) {
            status = (try? EndToEndTests.run([binary, "status"], environment: sandbox.environment(env)).stdout) ?? ""
            return status.contains(owed)
        }, "\(status)")
        let json = try EndToEndTests.run([binary, "status", "--json"], environment: sandbox.environment(env)).stdout
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(document?["owedToday"] as? String == "tips-and-updates", "\(json)")
        // history's `waiting` line no longer promises it: it says the waiter is gone, as status does.
        let history = try EndToEndTests.run([binary, "history"], environment: sandbox.environment(env)).stdout
        #expect(history.contains(" waiting: ") && history.contains("(its waiter is gone: notif daemon sends it again while it runs, or `notif deliver --catch-up tips-and-updates` sends it now)"),
                "\(history)")
        withExtendedLifetime(bus) {}
    }

    /// At a login after 09:00 the live manager starts, `Persistent=true` runs the missed run at
    /// once, before the desktop's notification server is up (dunst comes a moment later, started
    /// by the session, not by D-Bus activation: the manager has no display). Shown once, late.
    @Test(.hangGuard)
    func aLoginAfterNineWithTheServerAMomentLaterShowsItOnceRecordedLate() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-trwait-login")
        defer { deleteUser(user) }
        let zone = try ShiftedZone(nineOClockIn: -120)   // 09:02 local now
        let manager = try LiveUserManager(user: user, zone: zone.name)
        #expect(try manager.run([binary, "permission", "grant"]).status == 0)
        #expect(try manager.run([binary, "set", "tips-and-updates", "on"]).status == 0)
        let timer = try #require(((try? FileManager.default.contentsOfDirectory(atPath: user.home + "/.config/systemd/user")) ?? [])
            .first { $0.hasSuffix(".timer") })
        // Logged out: the timer last ran yesterday, and its entry is from yesterday too.
        manager.stop()
        try FileManager.default.setAttributes([.modificationDate: zone.noon(daysBefore: 1)],
                                              ofItemAtPath: user.home + "/.local/share/systemd/timers/stamp-" + timer)
        try user.entriesFromYesterday()

        try manager.start()   // the login
        #expect(await poll(for: 30) { DeliveryLine.all(of: user).contains { $0.outcome == "waiting" } },
                "Persistent=true did not run, or did not wait: \(DeliveryLine.all(of: user))\n\(manager.output)")
        // The desktop's server, a moment later.
        let dunst = try BackgroundProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i", "HOME=\(user.home)",
                                           "DISPLAY=\(display.display)", "DBUS_SESSION_BUS_ADDRESS=\(manager.busAddress)",
                                           "/usr/bin/dunst", "-conf", "/dev/null"],
                                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: sandbox.path + "/dunst.log")
        defer { kill(dunst.pid, SIGKILL) }
        #expect(await poll(for: 20) { DeliveryLine.all(of: user).count == 2 }, "\(DeliveryLine.all(of: user))")
        let lines = DeliveryLine.all(of: user)
        #expect(lines.map(\.outcome) == ["waiting", "delivered"], "\(lines)")
        #expect(lines.last?.detail.contains(" late: no run until ") == true
                && lines.last?.detail.contains("then no notification service until then; accepted by the notification service through ") == true, "\(lines)")
        #expect(try manager.shown().map(\.summary) == ["Tips & Updates"])
        let status = try manager.run([binary, "status"])
        #expect(status.stdout.contains("Last delivery:") && status.stdout.contains("then no notification service until then")
                && !status.stdout.contains("Last attempt:"), "\(status)")
        withExtendedLifetime(display) {}
    }

    /// The timer ran at 09:00 with no notification server; a logout ended its waiter; at the
    /// next login that day (the timer's stamp says it ran) the reminder still comes, once.
    @Test(.hangGuard)
    func aWaiterEndedByALogoutIsFollowedByTheNextLoginThatDay() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-trwait-relog")
        defer { deleteUser(user) }
        let zone = try ShiftedZone(nineOClockIn: 20)
        let manager = try LiveUserManager(user: user, zone: zone.name)
        #expect(try manager.run([binary, "permission", "grant"]).status == 0)
        #expect(try manager.run([binary, "set", "tips-and-updates", "on"]).status == 0)
        #expect(await poll(for: zone.secondsUntilNine + 30) { DeliveryLine.all(of: user).contains { $0.outcome == "waiting" } },
                "the timer's run did not wait: \(DeliveryLine.all(of: user))\n\(manager.output)")
        manager.stop()   // the logout: the waiter ends
        #expect(await poll(for: 20) { DeliveryLine.all(of: user).contains { $0.outcome == "failed" } }, "\(DeliveryLine.all(of: user))")
        try manager.start()   // the login, the same day
        let dunst = try BackgroundProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i", "HOME=\(user.home)",
                                           "DISPLAY=\(display.display)", "DBUS_SESSION_BUS_ADDRESS=\(manager.busAddress)",
                                           "/usr/bin/dunst", "-conf", "/dev/null"],
                                          environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: sandbox.path + "/dunst.log")
        defer { kill(dunst.pid, SIGKILL) }
        #expect(await poll(for: 30) { DeliveryLine.all(of: user).contains { $0.outcome == "delivered" } },
                "the login did not bring it: \(DeliveryLine.all(of: user))\n\(manager.output)")
        let lines = DeliveryLine.all(of: user)
        #expect(lines.filter { $0.outcome == "delivered" }.count == 1, "\(lines)")
        #expect(try manager.shown().map(\.summary) == ["Tips & Updates"])
        withExtendedLifetime(display) {}
    }

    /// No notification service all day: the day is recorded missed when it ends, and its waiter goes.
    @Test(.hangGuard)
    func noServiceAllDayIsRecordedMissedWhenTheDayEnds() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let zone = sandbox.path + "/zone"
        try ZoneFile.write(offset: ZoneFile.offset(makingLocalTime: 23, 59, 45), to: zone)
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": zone, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.path)/no-bus"]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        let waiting = try run([binary, "deliver", "tips-and-updates"], environment: sandbox.environment(env))
        #expect(waiting.status == 0 && waiting.stdout.contains("waiting: "), "\(waiting)")
        let day = DeliveryLine.all(of: sandbox).first?.text.components(separatedBy: "\"day\":\"").last?.prefix(10) ?? ""
        #expect(await poll(for: 40) { DeliveryLine.all(of: sandbox).count == 2 }, "\(DeliveryLine.all(of: sandbox))")
        let missed = try #require(DeliveryLine.all(of: sandbox).last)
        #expect(missed.outcome == "missed" && missed.text.contains("\"day\":\"\(day)\""), "\(missed)")
        #expect(missed.detail.hasPrefix("no notification service from 23:59 until the day ended (this session: its bus "), "\(missed)")
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home").isEmpty }, "the waiter stayed")
        let status = try sandbox.notif(["status"], env)
        #expect(status.stdout.contains("Last delivery:      none yet") && status.stdout.contains("Last attempt:") && status.stdout.contains("missed: "), "\(status)")
    }

    /// A new bus at the path of the one a waiter waits on, while that one lives on (a second user
    /// manager, a dbus-daemon started again): the waiter follows the path, and the reminder comes
    /// on the server started on the new bus.
    @Test(.hangGuard)
    func aWaiterFollowsANewBusAtItsPath() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let old = try BareBus()
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5), "DBUS_SESSION_BUS_ADDRESS": old.address]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        let waiting = try run([binary, "deliver", "tips-and-updates"], environment: sandbox.environment(env))
        #expect(waiting.status == 0 && waiting.stdout.contains("waiting: "), "\(waiting)")
        let new = try BareBus(at: old.socket)
        let service = try FakeNotificationService(config: ["close_after": 0.2], bus: new.address)
        #expect(await poll(for: 30) { DeliveryLine.all(of: sandbox).count == 2 }, "not sent on the new bus: \(DeliveryLine.all(of: sandbox))")
        #expect(DeliveryLine.all(of: sandbox).map(\.outcome) == ["waiting", "delivered"] && service.notifications().count == 1)
        withExtendedLifetime(old) {}
    }

    /// The waiter outlives its run, so it gets stdin, stdout and stderr and nothing else the run
    /// had: a descriptor the caller left open without CLOEXEC (as a harness's `flock` lock file)
    /// does not reach it, and the pipe a scheduler reads its job's output from (cron waits for it
    /// to close) closes when the run ends, while the waiter waits on.
    @Test(.hangGuard)
    func theWaiterHoldsNoDescriptorItsRunInherited() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5), "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.path)/no-bus"]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        let held = sandbox.path + "/held-by-the-caller"
        // fd 7 is opened by the shell without CLOEXEC; deliver's output goes to a pipe that `cat`
        // reads until every writer has closed it (at most 20 s).
        let script = "exec 7>>\"$1\"; \"$2\" deliver tips-and-updates | /usr/bin/timeout 20 /bin/cat; echo \"cat: $?\""
        let ran = try run(["/bin/sh", "-c", script, "sh", held, binary], environment: sandbox.environment(env))
        #expect(ran.stdout.contains("waiting: not sent yet: ") && ran.stdout.hasSuffix("cat: 0\n"),
                "the pipe stayed open after the run ended: \(ran)")
        let waiters = Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home")
        #expect(waiters.count == 1, "\(waiters)")
        for pid in waiters {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let targets = Dictionary(uniqueKeysWithValues: fds.map { ($0, (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?") })
            #expect(["0", "1", "2"].allSatisfy { targets[$0] == "/dev/null" }, "\(targets)")
            #expect(!targets.values.contains(held), "the caller's descriptor reached the waiter: \(targets)")
        }
    }

    /// A script for D-Bus activation that marks every start, and runs the stand-in server only
    /// with a display (as a real one dies without).
    func activationScript(_ sandbox: Sandbox, serverDirectory: String) throws -> (script: String, mark: String) {
        let filePath: String = #filePath
        let fixture = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/notification_server.py").path
        let server = sandbox.path + "/notification_server.py"
        try FileManager.default.copyItem(atPath: fixture, toPath: server)
        // In the server's directory, which the user's server may write: the sandbox, which holds
        // notif's program, stays writable by root alone (notif runs nothing from a place others can change).
        let script = serverDirectory + "/start-server", mark = serverDirectory + "/started"
        try FileManager.default.createDirectory(atPath: serverDirectory, withIntermediateDirectories: true)
        try """
            #!/bin/sh
            echo started >> '\(mark)'
            [ -n "$DISPLAY" ] || exit 1
            export DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-$DBUS_STARTER_ADDRESS}"
            exec /usr/bin/python3 '\(server)' '\(serverDirectory)'

            """.write(toFile: script, atomically: true, encoding: .utf8)
        for file in [script, server] { chmod(file, 0o755) }
        chmod(serverDirectory, 0o777)
        return (script, mark)
    }

    /// A bus a graphical session started (its own environment has the display) with an
    /// activation file for a notification server: a scheduled run outside the session (no
    /// display of its own) never has the bus start it, and waits; a run inside the session does,
    /// and the reminder's waiter then shows the reminder on that server.
    @Test(.hangGuard)
    func onlyARunInsideTheSessionHasTheBusStartAServer() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let services = sandbox.path + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        let (script, mark) = try activationScript(sandbox, serverDirectory: sandbox.path + "/server")
        try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=\(script)\n".write(toFile: services + "/n.service", atomically: true, encoding: .utf8)
        let bus = try BareBus(environment: ["DISPLAY": ":99"], services: services)
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5), "DBUS_SESSION_BUS_ADDRESS": bus.address]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        let outside = try run([binary, "deliver", "tips-and-updates"], environment: sandbox.environment(env))
        #expect(outside.stdout.contains("waiting: not sent yet: this session: no notification service runs (outside the graphical session"), "\(outside)")
        #expect(!FileManager.default.fileExists(atPath: mark), "the bus started a server for a run outside the session")
        // Inside the session: `notif test` with a display has the bus start it.
        let inside = try run([binary, "test"], environment: sandbox.environment(env.merging(["DISPLAY": ":99"]) { $1 }))
        #expect(inside.status == 0 && inside.stdout.contains("accepted by the notification service through this session"), "\(inside)")
        #expect(sandbox.read(mark) == "started\n")
        // The waiter saw the server come and showed the reminder on it.
        #expect(await poll(for: 20) { DeliveryLine.all(of: sandbox).contains { $0.outcome == "delivered" && $0.kind == "scheduled" } },
                "\(DeliveryLine.all(of: sandbox))")
        #expect(sandbox.read(mark) == "started\n", "started twice")
    }

    /// The same through the user manager, which starts D-Bus activated servers: without a display
    /// in its environment a scheduled run starts nothing and waits; a login puts the display
    /// there (as `dbus-update-activation-environment --systemd` does) and makes its runtime
    /// files: the waiter has the bus start the server and shows the reminder.
    @Test(.hangGuard)
    func aDisplayInTheManagersEnvironmentAllowsActivation() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let user = try TestUser.make("notif-trwait-act")
        defer { deleteUser(user) }
        let (script, mark) = try activationScript(sandbox, serverDirectory: sandbox.path + "/server")
        // The user's own activation file comes before the system's; the manager starts its unit.
        // (Not `Type=dbus`: installed servers' units, dunst's and xfce4-notifyd's, already claim
        // the bus name, and systemd refuses to load a second unit for it: "File exists".)
        let unit = "notif-test-notifyd.service"
        let zone = try ShiftedZone(nineOClockIn: -300)   // 09:05 local now
        let manager = try LiveUserManager(user: user, zone: zone.name)
        let files = [
            (user.home + "/.local/share/dbus-1/services/org.freedesktop.Notifications.service",
             "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=\(script)\nSystemdService=\(unit)\n"),
            (user.home + "/.config/systemd/user/" + unit,
             "[Service]\nExecStart=\(script)\n"),
        ]
        for (path, text) in files {
            #expect(try user.run(["/bin/sh", "-c", "mkdir -p \"${1%/*}\" && printf '%s' \"$0\" > \"$1\"", text, path]).status == 0)
        }
        #expect(try manager.systemctl(["daemon-reload"]).status == 0)
        // The session bus reads its service directories again when told (it also watches them).
        #expect(try manager.run(["/usr/bin/dbus-send", "--session", "--dest=org.freedesktop.DBus", "--type=method_call", "--print-reply",
                                 "/org/freedesktop/DBus", "org.freedesktop.DBus.ReloadConfig"]).status == 0)
        #expect(try manager.run([binary, "permission", "grant"]).status == 0)
        #expect(try manager.run([binary, "set", "tips-and-updates", "on"]).status == 0)
        try user.entriesFromYesterday()
        let scheduled = try manager.run([binary, "deliver", "tips-and-updates"])
        #expect(scheduled.stdout.contains("waiting: not sent yet: "), "\(scheduled)")
        #expect(!FileManager.default.fileExists(atPath: mark), "the manager started a server with no display")
        // The login.
        #expect(try manager.systemctl(["set-environment", "DISPLAY=:99"]).status == 0)
        #expect(try user.run(["/bin/mkdir", manager.runtimeDirectory + "/login-" + UUID().uuidString.prefix(4)]).status == 0)
        let came = await poll(for: 30) { DeliveryLine.all(of: user).count == 2 }
        #expect(came, "\(DeliveryLine.all(of: user))\n\(manager.output)")
        #expect(DeliveryLine.all(of: user).map(\.outcome) == ["waiting", "delivered"])
        #expect(user.read(mark) == "started\n")
    }

    /// With nothing in its environment (`env -i`, or a crontab's `PATH=/nonexistent`), a run
    /// finds the session notif recorded and what it needs by absolute path.
    @Test(.hangGuard)
    func aRunWithNoEnvironmentDeliversThroughTheRecordedSession() throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let service = try FakeNotificationService(config: ["capabilities": ["actions", "body"], "close_after": 0.3])
        let tz = ZoneShift.whereItIs(9, 5)
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": tz, "DBUS_SESSION_BUS_ADDRESS": service.busAddress]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)   // records the session
        try sandbox.entriesFromYesterday()
        for (i, extra) in [["PATH=/nonexistent"], []].enumerated() {
            if i == 1 { try FileManager.default.removeItem(atPath: sandbox.stateDir + "/delivered.json") }
            let ran = try run(["/usr/bin/env", "-i", "HOME=\(sandbox.path)/home", "TZ=\(tz)"] + extra + [binary, "deliver", "tips-and-updates"],
                              environment: ["PATH": "/usr/bin:/bin"])
            #expect(ran.status == 0 && ran.stdout.contains("through the recorded session as notification \(i + 1), with Turn off and Settings"), "\(extra): \(ran)")
        }
        #expect(service.notifications().count == 2)
    }

    /// A live zone swap over 09:00 under `notif daemon` (the zone file TZ names goes from 08:50 to
    /// 09:20, TZ otherwise unchanged): the entry was written at 08:50, so 09:00 came after it,
    /// whatever the new zone says 08:50 was: shown once, at the swap.
    @Test(.hangGuard)
    func aZoneSwapOverNineUnderTheDaemonShowsItOnceAtTheSwap() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let zone = sandbox.path + "/zone"
        try ZoneFile.write(offset: ZoneFile.offset(makingLocalTime: 8, 50, 0, leavingRoomFor: 1800), to: zone)
        let service = try FakeNotificationService(config: ["close_after": 0.2])
        let env = ["NOTIF_SCHEDULER": "embedded", "TZ": zone, "DBUS_SESSION_BUS_ADDRESS": service.busAddress]
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        // (The zone's offset has seconds; the record shows whole minutes: 08:49 or 08:50.)
        #expect(sandbox.read(sandbox.stateDir + "/entry-since.json")?.contains("T08:") == true)
        let daemon = try DaemonProcess([binary, "daemon"], environment: sandbox.environment(env), outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        #expect(await poll(for: 10) { daemon.output.contains("(scheduled, start): not due yet: 08:") }, "\(daemon.output)")
        try ZoneFile.write(offset: ZoneFile.offset(makingLocalTime: 9, 20, 0), to: zone)
        let swapped = Date()
        #expect(await poll(for: 20) { service.notifications().count == 1 }, "\(daemon.output)")
        _ = await poll(for: 10) { !DeliveryLine.all(of: sandbox).isEmpty }
        let lines = DeliveryLine.all(of: sandbox)
        // By the record's time (a loaded test run may look late; the daemon must not be).
        #expect(lines.first.map { $0.time.timeIntervalSince(swapped) < 10 } == true, "\(lines)")
        #expect(lines.map(\.outcome) == ["delivered"], "\(lines)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(service.notifications().count == 1)
    }
}
