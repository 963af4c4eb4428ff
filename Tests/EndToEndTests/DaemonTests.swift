import Foundation
import Testing
import TestSupport

/// The real `notif daemon` process: one per user, stops cleanly on SIGTERM and SIGINT.
@Suite struct DaemonProcessTests {
    @Test(.hangGuard)
    func runsOnceStopsCleanlyOnSignalsAndReleasesItsLock() throws {
        let sandbox = Sandbox()
        let env = ["NOTIF_SCHEDULER": "embedded"]
        _ = try sandbox.notif(["permission", "grant"], env)
        let set = try sandbox.notif(["set", "tips-and-updates", "on"], env)
        #expect(set.status == 0 && set.stdout.contains("with embedded"), "\(set)")
        #expect(set.stderr.contains("`notif daemon` is not running"), "\(set)")

        for signal in [SIGTERM, SIGINT] {
            let daemon = try DaemonProcess([NotifBinary.path, "daemon"], environment: sandbox.environment(env), outputIn: sandbox.path)
            #expect(daemon.waitUntilRunning(), "\(daemon.output)")
            let second = try sandbox.notif(["daemon"], env)
            #expect(second.status == 1 && second.stderr.contains("already running"), "\(second)")
            let status = try sandbox.notif(["status"], env)
            #expect(status.status == 0 && !status.stderr.contains("not running"), "\(status)")
            #expect(status.stdout.contains("Scheduler:          embedded (forced; notif daemon running)\n"), "\(status)")
            daemon.send(signal)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
            #expect(daemon.output.hasSuffix("notif daemon: stopped\n"), "\(daemon.output)")
            // The lock went with it.
            #expect(try sandbox.notif(["status"], env).stderr.contains("`notif daemon` is not running"))
        }
    }

    @Test func autostartEntryIsWrittenValidAndRemoved() throws {
        let sandbox = Sandbox()
        let file = sandbox.path + "/home/.config/autostart/notif-daemon.desktop"
        let install = try sandbox.notif(["daemon", "--install-autostart"])
        #expect(install.status == 0 && install.stdout.contains(file), "\(install)")
        let text = try #require(sandbox.read(file))
        // HOME here is not the account's, so it goes with the entry (the login session's is).
        #expect(text.contains("\nExec=/usr/bin/env HOME=\(sandbox.path)/home \(NotifBinary.path) daemon\n"), "\(text)")
        let validate = try run(["desktop-file-validate", file], environment: ["PATH": "/usr/bin:/bin"])
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate)")
        #expect(try sandbox.notif(["daemon", "--install-autostart"]).stdout.contains("already in place"))
        #expect(try sandbox.notif(["daemon", "--remove-autostart"]).status == 0)
        #expect(sandbox.read(file) == nil)
    }
}

/// The built-in scheduler for real: `notif daemon` under libfaketime, its clock starting at
/// 08:59:50, shows the reminder at 09:00 through dunst on a private D-Bus, once.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct DaemonDeliveryTests {
    @Test(.hangGuard)
    func theDaemonDeliversAtNineOnceUnderFaketime() throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-tdaemon")
        let session = try DesktopSession(user: user, display: display)
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": "Europe/Berlin"]) { a, _ in a }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        let entry = user.read(user.stateDir + "/embedded/tips-and-updates." + user.tag)
        #expect(entry?.contains("time=09:00") == true)

        let userEnv = user.environment(env)
        let assignments = userEnv.keys.sorted().map { "\($0)=\(userEnv[$0]!)" }
        let daemon = try DaemonProcess(
            ["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + assignments
                + ["faketime", "-f", "@2026-12-01 08:59:50", binary, "daemon"],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        let log = { user.read(user.stateDir + "/deliveries.jsonl") ?? "" }
        #expect(waitUntil(60) { log().contains("\"outcome\":\"delivered\"") }, "\(daemon.output)\n\(log())")

        let shown = try session.shown()
        #expect(shown.count == 1 && shown.first?.summary == "Tips & Updates" && shown.first?.app == "notif", "\(shown)")
        let lines = log().split(separator: "\n")
        // At start (08:59:50) the wake was no attempt and left no record; at 09:00 the delivery.
        #expect(lines.last?.contains("\"time\":\"2026-12-01T09:00:0") == true && lines.last?.contains("\"kind\":\"scheduled\"") == true, "\(lines)")
        #expect(lines.count == 1, "\(lines)")
        #expect(daemon.output.contains("skipped (scheduled, start): not due yet: 08:59 in Europe/Berlin, before 09:00"), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        withExtendedLifetime(display) {}
    }
}

/// The shipped release binary as the built-in scheduler, with real clocks (no libfaketime,
/// as users run it), so the user's zone is one where it is 08:59 now
/// (`ShiftedZone`), and `notif daemon` shows the reminder at 09:00 in it through dunst, once.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct ReleaseDaemonDeliveryTests {
    /// `notif daemon` (the release binary) in the user's zone: a wake at start before 09:00 that
    /// is no attempt and records nothing, then the reminder at 09:00, once.
    @Test(.hangGuard)
    func theDaemonRunsTheReleaseBinaryAtNine() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-trlv-daemon")
        let session = try DesktopSession(user: user, display: display)
        let zone = try ShiftedZone(nineOClockIn: 8)
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": zone.name]) { a, _ in a }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        let on = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(on.status == 0 && on.stdout.contains("with embedded"), "\(on)")
        let userEnv = user.environment(env)
        let daemon = try DaemonProcess(
            ["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + userEnv.keys.sorted().map { "\($0)=\(userEnv[$0]!)" } + [binary, "daemon"],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        try #require(zone.secondsUntilNine > 1, "setting up took longer than the zone's lead: 09:00 passed before the daemon ran")

        let fired = await poll(for: zone.secondsUntilNine + 20) { DeliveryLine.all(of: user).contains { $0.kind == "scheduled" } }
        let lines = DeliveryLine.all(of: user)
        #expect(fired, "\(daemon.output)\n\(lines)")
        #expect(lines.count == 1, "\(lines)")
        if let line = lines.last {
            #expect(line.kind == "scheduled" && line.outcome == "delivered", "\(lines)")
            #expect(line.time >= zone.nine && line.time < zone.nine.addingTimeInterval(10), "delivered at \(line.time), due \(zone.nine)")
            #expect(line.text.contains("\"time\":\"\(zone.iso(zone.nine).prefix(16))"), "logged in the user's zone: \(line)")
        }
        let shown = try session.shown()
        #expect(shown.count == 1 && shown.first?.summary == "Tips & Updates" && shown.first?.app == "notif", "\(shown)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        withExtendedLifetime(display) {}
    }

    /// Turned on at about 14:00 local and `notif daemon` started then (as at a login): nothing was
    /// missed, so nothing shows and nothing is recorded (the daemon's own output says why), and
    /// the next reminder is tomorrow's 09:00. The same entry as if written the day before (its
    /// record in entry-since.json set back) is caught up at the next start and shows at once.
    @Test(.hangGuard)
    func turnedOnAfterNineTheDaemonShowsNothingUntilTomorrow() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-trlv-late")
        let session = try DesktopSession(user: user, display: display)
        let zone = try ShiftedZone(nineOClockIn: -5 * 3_600)   // about 14:00 local now
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": zone.name]) { a, _ in a }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        let on = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(on.status == 0 && on.stdout.contains("with embedded"), "\(on)")
        let userEnv = user.environment(env)
        func startDaemon() throws -> DaemonProcess {
            try DaemonProcess(
                ["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + userEnv.keys.sorted().map { "\($0)=\(userEnv[$0]!)" } + [binary, "daemon"],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        }

        let daemon = try startDaemon()
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        // The positive signal: the start's catch-up decided, and logged why it showed nothing. A
        // notification would have been shown before that line was written (same attempt).
        let decided = await poll(for: 60) { daemon.output.contains("(scheduled, start)") }
        #expect(decided, "\(daemon.output)")
        #expect(daemon.output.contains("after today's 09:00: nothing was missed"), "\(daemon.output)")
        var lines = DeliveryLine.all(of: user)
        #expect(lines.isEmpty, "\(lines)")
        #expect(try session.shown().isEmpty, "a reminder turned on after 09:00 showed at once")
        let tomorrow = zone.nine.addingTimeInterval(86_400)
        let status = try user.run([binary, "status", "--json"], env)
        #expect(status.stdout.contains("\"nextReminder\": \"\(zone.iso(tomorrow))\""), "\(status)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")

        // The entry as if written yesterday at noon: today's 09:00 was missed while it existed.
        let record = user.stateDir + "/entry-since.json"
        #expect(user.read(record)?.contains("\"tips-and-updates.\(user.tag)\": \"\(zone.iso(Date()).prefix(10))") == true, "\(user.read(record) ?? "")")
        let yesterday = ISO8601DateFormatter().string(from: zone.noon(daysBefore: 1))
        let edit = try user.run(["/bin/sh", "-c", "printf '{\"%s\": \"%s\"}\\n' \"$0\" \"$1\" > \"$2\"", "tips-and-updates." + user.tag, yesterday, record], env)
        #expect(edit.status == 0, "\(edit)")
        let again = try startDaemon()
        #expect(again.waitUntilRunning(), "\(again.output)")
        #expect(await poll(for: 60) { DeliveryLine.all(of: user).count == 1 }, "\(again.output)")
        lines = DeliveryLine.all(of: user)
        #expect(lines.last?.kind == "scheduled" && lines.last?.outcome == "delivered" && lines.last?.detail.contains(" late: the first run since 09:00") == true, "\(lines)")
        let shown = try session.shown()
        #expect(shown.count == 1 && shown.first?.summary == "Tips & Updates", "\(shown)")
        again.send(SIGTERM)
        #expect(again.waitForExit() == 0, "\(again.output)")
        withExtendedLifetime(display) {}
    }
}
