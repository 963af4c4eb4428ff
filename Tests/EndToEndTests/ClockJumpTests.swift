import Foundation
import Testing
import TestSupport

/// One rule for a clock that jumps over 09:00, kept by every scheduler, live: a real cron daemon,
/// a live systemd user manager and `notif daemon`, each in a namespace whose system zone jumps a
/// minute or two from now (`ClockJump`: a daylight-time gap over 09:00, a 30-minute one, the
/// system zone changed, a fall-back day with 09:00 twice). The scheduler must wake
/// `notif deliver` at the first moment after the jump (or at the first 09:00), and the reminder
/// shows once. The shipped release binary, real clocks, dunst on each user's bus.
enum ClockJumpCheck {
    /// Waits until every case delivered and its last 09:00 has passed by 40 s, then checks that
    /// each showed the reminder once, at its due time (to the minute, in the zone after the jump).
    static func expectOneReminderEach(_ setups: [ClockJump: JumpSetup], scheduler: String,
                                      lines: @escaping (ClockJump) -> [DeliveryLine], shown: @escaping (ClockJump) throws -> [(app: String, summary: String)],
                                      context: @escaping (ClockJump) -> String) async throws {
        let last = setups.values.map(\.lastNine).max()!
        _ = await poll(for: last.timeIntervalSinceNow + 60) {
            setups.keys.allSatisfy { jump in lines(jump).contains { $0.outcome == "delivered" } }
        }
        while last.timeIntervalSinceNow > -40 { try await Task.sleep(nanoseconds: 500_000_000) }
        for (jump, setup) in setups.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let delivered = lines(jump).filter { $0.outcome == "delivered" }
            #expect(delivered.count == 1, "\(scheduler), \(jump): \(lines(jump))\n\(context(jump))")
            if let line = delivered.first {
                #expect(line.time >= setup.due.addingTimeInterval(-1) && line.time < setup.due.addingTimeInterval(15),
                        "\(scheduler), \(jump): delivered at \(line.time), due \(setup.due): \(line)")
                #expect(line.text.contains("\"time\":\"\(setup.dueLocal)"), "\(scheduler), \(jump): \(line) not at \(setup.dueLocal)")
            }
            let summaries = try shown(jump).map(\.summary)
            #expect(summaries == ["Tips & Updates"], "\(scheduler), \(jump): shown \(summaries)")
        }
    }
}

@Suite(.enabled(if: isRoot, "needs root for throwaway users and cron daemons"))
struct CronClockJumpTests {
    /// Debian's cron runs a fixed-time line skipped by a short forward jump right after it (the
    /// gaps and the zone swap); on the fall-back day it runs it at the first 09:00 only.
    @Test(.hangGuard)
    func cronWakesDeliverOnceAfterEachJump() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let change = JumpSetup.moment(in: 240)
        var setups: [ClockJump: JumpSetup] = [:], users: [ClockJump: TestUser] = [:]
        var sessions: [ClockJump: DesktopSession] = [:], systems: [ClockJump: ZonedSystem] = [:]
        defer {
            sessions.removeAll()   // userdel refuses a user whose dunst still runs
            systems.removeAll()
            for user in users.values { deleteUser(user) }
        }
        for jump in ClockJump.allCases {
            let setup = try JumpSetup(jump, change: change)
            let user = try TestUser.make("notif-tjc-" + jump.rawValue.lowercased())
            setups[jump] = setup
            users[jump] = user
            sessions[jump] = try DesktopSession(user: user, display: display)
            let system = try ZonedSystem(zone: setup.zone, swappable: jump == .swap)
            systems[jump] = system
            let env = sessions[jump]!.environment.merging(["NOTIF_SCHEDULER": "cron"]) { a, _ in a }
            #expect(try system.run(as: user, [binary, "permission", "grant"], env).status == 0)
            let on = try system.run(as: user, [binary, "set", "tips-and-updates", "on"], env)
            #expect(on.status == 0, "\(jump): \(on)")
            if jump != .swap {
                // status predicts the due time: the first moment after a gap, the first 09:00.
                let status = try system.run(as: user, [binary, "status", "--json"], env)
                #expect(status.stdout.contains("\"nextReminder\": \"\(setup.dueLocal):00"), "\(jump): \(status.stdout)")
            }
            try system.startCron(bootJobs: false)
        }
        try #require(Date() < setups[.fallBack]!.due.addingTimeInterval(-5), "set up too slowly: the first 09:00 passed")
        // 25 s before the minute, so cron's look on the minute sees it (a swap a moment after the
        // minute waits a minute for cron's next look); still well after its look the minute
        // before, and 09:00 in neither zone lies between.
        try await setups[.swap]!.startSwap(entering: systems[.swap]!.enter, lead: 25, log: sandbox.path + "/swap.log")?.done()
        try await ClockJumpCheck.expectOneReminderEach(setups, scheduler: "cron", lines: { DeliveryLine.all(of: users[$0]!) },
                                                       shown: { try sessions[$0]!.shown() },
                                                       context: { (try? systems[$0]!.crontab(of: users[$0]!)) ?? "" })
        for system in systems.values { #expect(system.cronRunning) }
        withExtendedLifetime(display) {}
    }

    /// Y1: a user whose zone's daylight time begins at 09:00 (`TZ` set), cron in another zone.
    /// Its lines hold both halves of the year (the daylight half's had none), and on the day
    /// the jump skips 09:00 the reminder comes at its first moment after, 10:00 daylight time.
    @Test(.hangGuard)
    func aZoneWhoseDaylightTimeBeginsAtNineHasLinesForBothHalves() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let user = try TestUser.make("notif-tjc-y1")
        var session: DesktopSession? = try DesktopSession(user: user, display: display)
        defer {
            session = nil
            deleteUser(user)
        }
        let zone = try TransitionZone(at: (9, 0), jump: 60, change: JumpSetup.moment(in: 50))
        let system = try ZonedSystem(zone: "Asia/Kolkata")
        let env = session!.environment.merging(["NOTIF_SCHEDULER": "cron", "TZ": zone.name]) { a, _ in a }
        #expect(try system.run(as: user, [binary, "permission", "grant"], env).status == 0)
        #expect(try system.run(as: user, [binary, "set", "tips-and-updates", "on"], env).status == 0)
        // Kolkata is +05:30: 09:00 standard time is the jump's moment, 09:00 daylight time an hour before.
        var kolkata = Calendar(identifier: .gregorian)
        kolkata.timeZone = TimeZone(identifier: "Asia/Kolkata")!
        func line(_ date: Date) -> String {
            let c = kolkata.dateComponents([.hour, .minute], from: date)
            return "\(c.minute!) \(c.hour!) * * * [ -x "
        }
        let crontab = try system.crontab(of: user)
        let jobs = crontab.split(separator: "\n").filter { $0.first?.isNumber == true }.map(String.init)
        #expect(jobs.contains { $0.hasPrefix(line(zone.change)) } && jobs.contains { $0.hasPrefix(line(zone.change.addingTimeInterval(-3_600))) },
                "standard and daylight 09:00: \(crontab)")
        try system.startCron(bootJobs: false)
        try #require(zone.change.timeIntervalSinceNow > 1, "set up too slowly")
        _ = await poll(for: zone.change.timeIntervalSinceNow + 40) { DeliveryLine.all(of: user).contains { $0.outcome == "delivered" } }
        let lines = DeliveryLine.all(of: user)
        #expect(lines.count == 1 && lines.first?.outcome == "delivered" && lines.first?.text.contains("\"time\":\"\(zone.isoMinute(zone.change))") == true,
                "at 10:00 daylight time: \(lines)\n\(crontab)")
        #expect(try session!.shown().map(\.summary) == ["Tips & Updates"])
        withExtendedLifetime((display, system, zone)) {}
    }
}

@Suite(.enabled(if: isRoot, "needs root for throwaway users, mount namespaces and cgroups"))
struct SystemdClockJumpTests {
    /// A live user manager in each zone (no `TZ`: it follows /etc/localtime). A gap leaves 09:00
    /// out of the day, which systemd skips: the timer's calendar for the gap's end fires; the
    /// zone swap starts the service through `OnTimezoneChange=`; 09:00 twice shows once.
    @Test(.hangGuard)
    func theUserManagerWakesDeliverOnceAfterEachJump() async throws {
        let display = try VirtualDisplay()
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let change = JumpSetup.moment(in: 240)
        var setups: [ClockJump: JumpSetup] = [:], managers: [ClockJump: LiveUserManager] = [:], users: [ClockJump: TestUser] = [:]
        defer {
            managers.removeAll()
            for user in users.values { deleteUser(user) }
        }
        for jump in ClockJump.allCases {
            let setup = try JumpSetup(jump, change: change)
            setups[jump] = setup
            let user = try TestUser.make("notif-tjs-" + jump.rawValue.lowercased())
            users[jump] = user
            let manager = try LiveUserManager(user: user, zone: setup.zone, display: display, swappable: true)
            managers[jump] = manager
            #expect(try manager.run([binary, "permission", "grant"]).status == 0)
            let on = try manager.run([binary, "set", "tips-and-updates", "on"])
            #expect(on.status == 0 && on.stdout.contains("with systemd"), "\(jump): \(on)")
            if jump != .swap {
                let status = try manager.run([binary, "status", "--json"])
                #expect(status.stdout.contains("\"nextReminder\": \"\(setup.dueLocal):00"), "\(jump): \(status.stdout)")
                let next = try manager.timers()[user.timerName] ?? nil
                #expect(next == setup.due, "\(jump): the manager's next elapse \(String(describing: next)), due \(setup.due)")
            }
        }
        try #require(Date() < setups[.fallBack]!.due.addingTimeInterval(-5), "set up too slowly: the first 09:00 passed")
        try await setups[.swap]!.startSwap(entering: try managers[.swap]!.enter(), log: sandbox.path + "/swap.log")?.done()
        try await ClockJumpCheck.expectOneReminderEach(setups, scheduler: "systemd", lines: { DeliveryLine.all(of: users[$0]!) },
                                                       shown: { try managers[$0]!.shown() }, context: { managers[$0]!.output })
        withExtendedLifetime(display) {}
    }
}

@Suite(.enabled(if: isRoot, "needs root for throwaway users and mount namespaces"))
struct DaemonClockJumpTests {
    /// `notif daemon` in each zone (no `TZ`): it arms the first moment after a gap, wakes on the
    /// zone change it watches, and re-arms for tomorrow after the first 09:00.
    @Test(.hangGuard)
    func theDaemonWakesDeliverOnceAfterEachJump() async throws {
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        let display = try VirtualDisplay()
        let change = JumpSetup.moment(in: 240)
        var setups: [ClockJump: JumpSetup] = [:], users: [ClockJump: TestUser] = [:]
        var sessions: [ClockJump: DesktopSession] = [:], systems: [ClockJump: ZonedSystem] = [:], daemons: [ClockJump: DaemonProcess] = [:]
        defer {
            daemons.removeAll()
            sessions.removeAll()
            systems.removeAll()
            for user in users.values { deleteUser(user) }
        }
        for jump in ClockJump.allCases {
            let setup = try JumpSetup(jump, change: change)
            let user = try TestUser.make("notif-tjd-" + jump.rawValue.lowercased())
            setups[jump] = setup
            users[jump] = user
            sessions[jump] = try DesktopSession(user: user, display: display)
            let system = try ZonedSystem(zone: setup.zone, swappable: jump == .swap)
            systems[jump] = system
            let env = sessions[jump]!.environment.merging(["NOTIF_SCHEDULER": "embedded"]) { a, _ in a }
            #expect(try system.run(as: user, [binary, "permission", "grant"], env).status == 0)
            let on = try system.run(as: user, [binary, "set", "tips-and-updates", "on"], env)
            #expect(on.status == 0 && on.stdout.contains("with embedded"), "\(jump): \(on)")
            let daemon = try DaemonProcess(system.argv(as: user, [binary, "daemon"], env), environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
                                           outputIn: sandbox.path)
            daemons[jump] = daemon
            #expect(daemon.waitUntilRunning(), "\(jump): \(daemon.output)")
            // Built-in entries fire only while the daemon runs: status says when once it does.
            if jump != .swap {
                let status = try system.run(as: user, [binary, "status", "--json"], env)
                #expect(status.stdout.contains("\"nextReminder\": \"\(setup.dueLocal):00"), "\(jump): \(status.stdout)")
            }
        }
        try #require(Date() < setups[.fallBack]!.due.addingTimeInterval(-5), "set up too slowly: the first 09:00 passed")
        try await setups[.swap]!.startSwap(entering: systems[.swap]!.enter, log: sandbox.path + "/swap.log")?.done()
        // The scheduler's side, now: the zone watch woke the daemon at the swap and it asked deliver.
        let woke = await poll(for: 20) { daemons[.swap]!.output.contains(", zone change)") }
        #expect(woke, "the daemon did not wake at the zone change: \(daemons[.swap]!.output)")
        try await ClockJumpCheck.expectOneReminderEach(setups, scheduler: "daemon", lines: { DeliveryLine.all(of: users[$0]!) },
                                                       shown: { try sessions[$0]!.shown() },
                                                       context: { daemons[$0]!.output })
        withExtendedLifetime(display) {}
    }
}
