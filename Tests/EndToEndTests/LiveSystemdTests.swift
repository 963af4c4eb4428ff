import Foundation
import Testing
import TestSupport

/// The shipped release binary with a live systemd user manager (`LiveUserManager`), as a desktop
/// user gets it: notif picks systemd by itself, the timer fires at 09:00 local (reached with
/// real clocks by giving the manager and notif a zone where it is 08:59 now) and dunst shows the
/// reminder, also when the manager runs in another zone than the user; turning it off stops, cleans and removes the timer; `Persistent=true` catches up a
/// missed run once after a restart, and never a run of an earlier day; a dead manager's socket
/// is not taken for a running manager.
@Suite(.enabled(if: isRoot, "needs root for throwaway users, a mount namespace and cgroups"))
struct LiveSystemdTests {
    /// A throwaway user whose live manager runs in `zone`, with the release binary to run.
    struct Setup {
        let sandbox = Sandbox()
        let user: TestUser
        let binary: String
        let manager: LiveUserManager

        init(_ name: String, zone: String, display: VirtualDisplay? = nil, managerTZ: String? = nil) throws {
            user = try TestUser.make(name)
            binary = try NotifBinary.releaseCopy(in: sandbox)
            manager = try LiveUserManager(user: user, zone: zone, display: display, swappable: managerTZ != nil, managerTZ: managerTZ)
        }

        /// notif as a program of the desktop session (no scheduler forced: it finds systemd).
        func notif(_ args: [String], _ extra: [String: String] = [:]) throws -> RunResult {
            try manager.run([binary] + args, extra)
        }

        /// Allows notifications and turns Tips & Updates on, which starts the timer; its name
        /// (`notif-tips-and-updates-TAG.timer`, the tag naming the configuration).
        @discardableResult
        func turnOn(_ extra: [String: String] = [:]) throws -> String {
            let granted = try notif(["permission", "grant"], extra)
            #expect(granted.status == 0, "\(granted)")
            let on = try notif(["set", "tips-and-updates", "on"], extra)
            #expect(on.status == 0 && on.stdout.contains("scheduled daily at 09:00 with systemd"), "\(on)")
            return try #require(unitFiles.map { ($0 as NSString).lastPathComponent }.first { $0.hasSuffix(".timer") }, "no timer: \(on)")
        }

        /// notif's unit files and enable links in the user's unit directory.
        var unitFiles: [String] {
            let dir = user.home + "/.config/systemd/user"
            return [dir, dir + "/timers.target.wants"].flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("notif-") }.map { folder + "/" + $0 }
            }
        }

        /// Waits for 09:00 in `zone` and the run after it: one reminder delivered, within 10 s of
        /// 09:00. Its record.
        @discardableResult
        func expectDeliveredOnceAtNine(_ zone: ShiftedZone) async throws -> DeliveryLine? {
            try #require(zone.secondsUntilNine > 1, "setting up took longer than the zone's lead")
            let fired = await poll(for: zone.secondsUntilNine + 20) { DeliveryLine.all(of: user).contains { $0.outcome == "delivered" } }
            let lines = DeliveryLine.all(of: user)
            #expect(fired && lines.count == 1, "\(lines)")
            if let line = lines.first {
                #expect(line.time >= zone.nine && line.time < zone.nine.addingTimeInterval(10), "delivered at \(line.time), due \(zone.nine)")
            }
            return lines.first
        }

        /// Where the manager keeps the time `timer` last ran (`Persistent=true`).
        func stamp(of timer: String) -> String { user.home + "/.local/share/systemd/timers/stamp-" + timer }
    }

    @Test(.hangGuard)
    func theTimerFiresAtNineLocalAndDunstShowsIt() async throws {
        let display = try VirtualDisplay()
        let zone = try ShiftedZone(nineOClockIn: 12)
        let live = try Setup("notif-trlv-fire", zone: zone.name, display: display)
        let timer = try live.turnOn()
        #expect(try live.manager.timers()[timer] == .some(zone.nine), "the manager's next elapse is 09:00 local")
        // status with the manager running: running, in sync (files written, timer enabled), and
        // the next reminder the manager will really fire.
        let before = try live.notif(["status"])
        #expect(before.stdout.contains("Scheduler:          systemd (user manager running)\n"), "\(before)")
        #expect(before.stdout.contains("In sync:            yes\n") && before.stdout.contains("(\(zone.iso(zone.nine)))\n"), "\(before)")
        #expect(try live.manager.systemctl(["is-enabled", timer]).stdout == "enabled\n")
        #expect(try live.manager.systemctl(["is-active", timer]).stdout == "active\n")
        // The service runs deliver, which at 09:00 delivers as every run does.
        let line = try await live.expectDeliveredOnceAtNine(zone)
        #expect(line?.kind == "scheduled", "\(String(describing: line))\n\(live.manager.output)")
        let shown = try live.manager.shown()
        #expect(shown.count == 1 && shown.first?.summary == "Tips & Updates" && shown.first?.app == "notif", "\(shown)")
        // Afterwards: the next elapse is tomorrow's 09:00, and status says so with the delivery.
        let tomorrow = zone.nine.addingTimeInterval(86_400)
        #expect(try live.manager.timers()[timer] == .some(tomorrow))
        let after = try live.notif(["status"])
        #expect(after.stdout.contains("(\(zone.iso(tomorrow)))\n") && after.stdout.contains("Last delivery:      \(zone.iso(line?.time ?? zone.nine).prefix(16))"), "\(after)")
        withExtendedLifetime(display) {}
    }

    @Test func turningOffWithTheManagerRunningStopsCleansAndRemovesTheTimer() throws {
        let zone = try ShiftedZone(nineOClockIn: 3 * 3_600)
        let live = try Setup("notif-trlv-off", zone: zone.name)
        let timer = try live.turnOn()
        #expect(try live.manager.timers().keys.contains(timer))
        // The manager wrote the timer's stamp when it started it (Persistent=true).
        #expect(FileManager.default.fileExists(atPath: live.stamp(of: timer)))
        #expect(live.unitFiles.count == 3, "\(live.unitFiles)")

        let off = try live.notif(["set", "tips-and-updates", "off"])
        #expect(off.status == 0 && off.stdout.contains("Tips & Updates: off"), "\(off)")
        #expect(try !live.manager.timers().keys.contains(timer), "list-timers still shows it")
        let active = try live.manager.systemctl(["is-active", timer])
        #expect(active.status != 0 && active.stdout == "inactive\n", "\(active)")
        #expect(!FileManager.default.fileExists(atPath: live.stamp(of: timer)), "the stamp is left: a later install would fire at once")
        #expect(live.unitFiles.isEmpty, "\(live.unitFiles)")
        // The manager forgot the unit (daemon-reload ran after the files went).
        let cat = try live.manager.systemctl(["cat", timer])
        #expect(cat.status != 0 && cat.stderr.contains("No files found"), "\(cat)")
        let status = try live.notif(["status"])
        #expect(status.stdout.contains("Installed:          nothing\n") && status.stdout.contains("In sync:            yes\n"), "\(status)")
    }

    /// The machine was off at 09:00 (the timer last ran yesterday): when the manager starts after
    /// 09:00 the same day, `Persistent=true` (and the login itself) runs the service at once and
    /// the reminder shows; another restart that day runs it again, and it shows nothing more.
    @Test(.hangGuard)
    func aRunMissedTodayIsDeliveredOnceAfterARestart() throws {
        let display = try VirtualDisplay()
        let zone = try ShiftedZone(nineOClockIn: -300)   // 09:04 local now
        let live = try Setup("notif-trlv-missed", zone: zone.name, display: display)
        let timer = try live.turnOn()
        #expect(DeliveryLine.all(of: live.user).isEmpty, "a first start fires nothing")
        live.manager.stop()
        try FileManager.default.setAttributes([.modificationDate: zone.noon(daysBefore: 1)], ofItemAtPath: live.stamp(of: timer))
        try live.user.entriesFromYesterday()   // the entry was there yesterday too

        try live.manager.start()
        #expect(waitUntil(20) { !DeliveryLine.all(of: live.user).isEmpty }, "\(live.manager.output)")
        let lines = DeliveryLine.all(of: live.user)
        #expect(lines.count == 1 && lines.first?.kind == "scheduled" && lines.first?.outcome == "delivered", "\(lines)")
        let shown = try live.manager.shown()
        #expect(shown.map(\.summary) == ["Tips & Updates"], "\(shown)")

        live.manager.stop()
        try live.manager.start()
        // The login runs the service (the positive signal that deliver was asked); it shows nothing more.
        let service = timer.replacingOccurrences(of: ".timer", with: ".service")
        #expect(try waitUntil(20) {
            try live.manager.systemctl(["show", "--value", "--property=ExecMainExitTimestampMonotonic", service]).stdout != "0\n"
        }, "the login did not run the service")
        #expect(DeliveryLine.all(of: live.user).count == 1)
        #expect(try live.manager.timers()[timer] == .some(zone.nine.addingTimeInterval(86_400)))
        withExtendedLifetime(display) {}
    }

    /// Turned on at about 14:00 local: the manager arms the timer for tomorrow's 09:00 and does
    /// not run it for today's (`Persistent=true` has no earlier run to catch up: the stamp it
    /// writes when it first starts the timer is 14:00), neither then nor when the manager starts
    /// again that day (a login). The login runs the service itself; `deliver` then shows nothing
    /// (the entry came after today's 09:00).
    @Test(.hangGuard)
    func turnedOnAfterNineTheTimerWaitsForTomorrow() throws {
        let zone = try ShiftedZone(nineOClockIn: -5 * 3_600)   // about 14:00 local now
        let live = try Setup("notif-trlv-after", zone: zone.name)
        let timer = try live.turnOn()
        let service = timer.replacingOccurrences(of: ".timer", with: ".service")
        let tomorrow = zone.nine.addingTimeInterval(86_400)
        func neverRan(login: Bool) throws {
            // Armed for tomorrow: the positive signal that the manager has worked the timer out.
            #expect(try live.manager.timers()[timer] == .some(tomorrow), "the next elapse is not tomorrow's 09:00")
            if login {
                #expect(try waitUntil(20) {
                    try live.manager.systemctl(["show", "--value", "--property=ExecMainExitTimestampMonotonic", service]).stdout != "0\n"
                }, "the login did not run the service")
            }
            // Then, for a bound of 5 s, the timer has not triggered and nothing was shown or recorded.
            let deadline = Date().addingTimeInterval(5)
            repeat {
                let triggered = try live.manager.systemctl(["show", "--value", "--property=LastTriggerUSecMonotonic", timer])
                #expect(triggered.stdout == "0\n", "the timer triggered: \(triggered)")
                if !login {
                    let started = try live.manager.systemctl(["show", "--value", "--property=ExecMainStartTimestampMonotonic", service])
                    #expect(started.stdout == "0\n", "the service ran: \(started)")
                    if started.stdout != "0\n" { return }
                }
                #expect(DeliveryLine.all(of: live.user).isEmpty)
                if triggered.stdout != "0\n" { return }
                usleep(250_000)
            } while Date() < deadline
        }
        try neverRan(login: false)
        // The stamp says when the timer was first started: after today's 09:00.
        let stamp = try FileManager.default.attributesOfItem(atPath: live.stamp(of: timer))[.modificationDate] as? Date
        #expect(stamp.map { $0 > zone.nine } == true, "stamp \(String(describing: stamp)), 09:00 was \(zone.nine)")

        live.manager.stop()
        try live.manager.start()
        try neverRan(login: true)
    }

    /// The machine was off since the day before yesterday and starts today before 09:00:
    /// `Persistent=true` runs the service for yesterday's missed 09:00, which shows nothing and
    /// records nothing (today's reminder is not due yet), and the timer still fires at today's 09:00.
    @Test(.hangGuard)
    func aRunMissedOnAnEarlierDayIsNotDelivered() throws {
        let display = try VirtualDisplay()
        let zone = try ShiftedZone(nineOClockIn: 20 * 60)   // about 08:40 local now
        let live = try Setup("notif-trlv-later", zone: zone.name, display: display)
        let timer = try live.turnOn()
        live.manager.stop()
        try FileManager.default.setAttributes([.modificationDate: zone.noon(daysBefore: 2)], ofItemAtPath: live.stamp(of: timer))

        try live.manager.start()
        // The positive signal: the service ran (and ended), for the missed run.
        let service = timer.replacingOccurrences(of: ".timer", with: ".service")
        #expect(try waitUntil(20) {
            try live.manager.systemctl(["show", "--value", "--property=ExecMainExitTimestampMonotonic", service]).stdout != "0\n"
        }, "Persistent=true did not run the service: \(live.manager.output)")
        #expect(DeliveryLine.all(of: live.user).isEmpty, "\(DeliveryLine.all(of: live.user))")
        #expect(try live.manager.shown().isEmpty)
        #expect(try live.manager.timers()[timer] == .some(zone.nine), "the next run moved off 09:00")
        withExtendedLifetime(display) {}
    }

    /// A manager that stopped leaves `systemd/private` behind: notif must not take it for a
    /// running one (it picked systemd, and `set … off` then failed asking the dead manager).
    @Test func aSocketLeftByAStoppedManagerIsNotARunningManager() throws {
        let live = try Setup("notif-trlv-stale", zone: "Etc/UTC")
        let timer = try live.turnOn()
        live.manager.stop()
        #expect(FileManager.default.fileExists(atPath: live.manager.runtimeDirectory + "/systemd/private"), "the socket file stays")
        let env = ["XDG_RUNTIME_DIR": live.manager.runtimeDirectory, "TZ": "Etc/UTC"]
        let detected = try live.user.run([live.binary, "status"], env)
        #expect(!detected.stdout.contains("Scheduler:          systemd"), "\(detected)")
        let forced = env.merging(["NOTIF_SCHEDULER": "systemd"]) { a, _ in a }
        let status = try live.user.run([live.binary, "status"], forced)
        // Run outside the manager's namespace: this machine was not started with systemd, so nothing fires the timer.
        #expect(status.stdout.contains("Scheduler:          systemd (forced; no systemd user manager, and this machine was not started with systemd: its timers cannot fire)\n"), "\(status)")
        let off = try live.user.run([live.binary, "set", "tips-and-updates", "off"], forced)
        #expect(off.status == 0, "\(off)")
        #expect(live.unitFiles.isEmpty && !FileManager.default.fileExists(atPath: live.stamp(of: timer)), "\(live.unitFiles)")
    }

    /// The manager runs in UTC, the user's zone is another: the reminder still comes at 09:00 in
    /// the user's zone, when the manager says it will, and status shows that moment.
    @Test(.hangGuard)
    func theTimerFiresAtNineInTheUsersZoneWhenTheManagerRunsInUTC() async throws {
        let display = try VirtualDisplay()
        let live = try Setup("notif-trlv-xzone", zone: "Etc/UTC", display: display)
        let zone = try ShiftedZone(nineOClockIn: 10)
        let mine = ["TZ": zone.name]
        let timer = try live.turnOn(mine)
        #expect(try live.manager.timers()[timer] == .some(zone.nine), "the manager's next elapse is not 09:00 in the user's zone")
        let status = try live.notif(["status"], mine)
        #expect(status.stdout.contains("(\(zone.iso(zone.nine)))\n"), "\(status)")
        try await live.expectDeliveredOnceAtNine(zone)
        #expect(try live.manager.shown().map(\.summary) == ["Tips & Updates"])
        withExtendedLifetime(display) {}
    }

    /// The manager was started with a `TZ` of its own (Asia/Tokyo), the system zone is another and
    /// notif runs without `TZ`: the manager reads a calendar without a zone in Tokyo, so the timer
    /// holds the Tokyo times that are 09:00 in the system zone. It fires then, status says so.
    @Test(.hangGuard)
    func aManagerWithATZOfItsOwnFiresAtNineInTheSystemZone() async throws {
        let display = try VirtualDisplay()
        let zone = try ShiftedZone(nineOClockIn: 20)
        let live = try Setup("notif-trlv-mtz", zone: zone.name, display: display, managerTZ: "Asia/Tokyo")
        let timer = try live.turnOn()
        #expect(try live.manager.timers()[timer] == .some(zone.nine), "the manager's next elapse is not 09:00 in the system zone")
        let status = try live.notif(["status"])
        #expect(status.stdout.contains("In sync:            yes\n") && status.stdout.contains("(\(zone.iso(zone.nine)))\n"), "\(status)")
        let line = try await live.expectDeliveredOnceAtNine(zone)
        // Counted in the system zone, not in the manager's Tokyo.
        #expect(line?.text.contains("\"time\":\"\(zone.iso(zone.nine).prefix(16))") == true, "\(String(describing: line?.text))")
        withExtendedLifetime(display) {}
    }
}
