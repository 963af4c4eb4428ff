import Foundation
import Testing
import TestSupport

/// The reminder's buttons, end to end: `notif deliver` shows Tips & Updates with "Turn off" and
/// "Settings" through a detached waiter and exits at once; a notification service (a stand-in
/// on its own D-Bus session that presses a button) then turns the reminder off or opens the page.
@Suite struct ReminderActionsTests {
    static let buttons = ["turn-off", "Turn off", "settings", "Settings"]

    /// A sandbox with the reminder on (built-in scheduler) and fake programs on PATH.
    func prepared(_ sandbox: Sandbox, _ service: FakeNotificationService, fakes: FakeTools? = nil, extra: [String: String] = [:]) throws -> [String: String] {
        // A scheduled `deliver` shows the reminder only at its time in the user's zone: a zone where it is 09:05.
        var env = ["DBUS_SESSION_BUS_ADDRESS": service.busAddress, "TZ": ZoneShift.whereItIs(9, 5)]
        if let fakes { env["PATH"] = fakes.path }
        env.merge(extra) { $1 }
        #expect(try sandbox.notif(["permission", "grant"], env).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], env).status == 0)
        try sandbox.entriesFromYesterday()
        return env
    }

    @Test(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"), .hangGuard)
    func turnOffOnTheBubbleTurnsTheReminderOffAndTakesItOutOfTheCrontab() throws {
        let user = try TestUser.make("notif-tr14-actions")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let service = try FakeNotificationService(config: ["capabilities": ["actions", "body"], "invoke": "turn-off", "invoke_after": 2], user: user)
        let env = ["TZ": ZoneShift.whereItIs(9, 5), "NOTIF_SCHEDULER": "cron", "DBUS_SESSION_BUS_ADDRESS": service.busAddress]
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        try user.entriesFromYesterday()
        #expect(try user.crontab().contains("deliver --quiet tips-and-updates"))

        // What the cron job runs. It returns at once, before the button is pressed.
        let deliver = try user.run([binary, "deliver", "tips-and-updates"], env)
        let settingsRightAfter = user.read(user.settingsPath) ?? ""
        // 09:05 when the zone was made; a loaded run may reach it a minute or two later.
        #expect(deliver.status == 0 && deliver.stdout.contains("delivered: sent 09:0")
                && deliver.stdout.contains(" min late: the first run since 09:00 (the machine was off or asleep, its clock or zone changed, or no scheduler ran); accepted by the notification service through this session as notification 1, with Turn off and Settings"), "\(deliver)")
        #expect(settingsRightAfter.contains("\"tipsAndUpdates\": true"), "deliver waited for the button")

        let sent = try #require(service.notifications().first)
        #expect(sent["app"] as? String == "notif" && sent["summary"] as? String == "Tips & Updates", "\(sent)")
        #expect(sent["actions"] as? [String] == Self.buttons, "\(sent)")
        #expect((sent["hints"] as? [String: String])?["desktop-entry"] == "notif", "\(sent)")
        #expect((sent["icon"] as? String).map { $0.isEmpty || $0.hasPrefix("/") } == true, "a file's path or none: \(sent)")

        // The button: the setting goes off and the entry leaves the crontab, as `notif set` does.
        #expect(waitUntil(15) { user.read(user.settingsPath)?.contains("\"tipsAndUpdates\": false") == true }, "\(String(describing: user.read(user.settingsPath)))")
        #expect(waitUntil(10) { (try? user.crontab().contains("deliver --quiet tips-and-updates")) == false }, "\(String(describing: try? user.crontab()))")
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, uid: user.uid).isEmpty }, "the waiter stayed")
        let status = try user.run([binary, "status"], env)
        #expect(status.stdout.contains("Installed:          nothing") && status.stdout.contains("In sync:            yes"), "\(status)")
        // The press is in the delivery log; the last delivery stays the reminder's.
        let history = try user.run([binary, "history"], env)
        #expect(history.stdout.contains("tips-and-updates  turned-off (button): Turn off pressed on the notification"), "\(history)")
        #expect(!history.stdout.contains("Tips & Updates: off; Tips & Updates: off"), "a line the next repeats: \(history)")
        #expect(status.stdout.contains("Last delivery:") && !status.stdout.contains("turned-off"), "\(status)")
    }

    /// A systemd timer's service ends by killing what is left in its cgroup: the waiter lives
    /// on in a scope of its own, so the button still works after the service has finished.
    @Test(.enabled(if: isRoot, "needs root for a throwaway user and a user manager"), .hangGuard)
    func turnOffStillWorksAfterTheSystemdServiceThatShowedItHasEnded() throws {
        let user = try TestUser.make("notif-tr14-sdact")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        // The service's deliver shows today's reminder only once 09:00 has passed in the user's
        // zone: a zone where it is 09:05, for the manager and for the entry, whatever the clock.
        let tz = ZoneShift.whereItIs(9, 5)
        let manager = try ActionsUserManager(user: user, tz: tz)
        let service = try FakeNotificationService(config: ["invoke": "turn-off", "invoke_after": 2], user: user, bus: manager.busAddress)
        #expect(try manager.run([binary, "permission", "grant"]).status == 0)
        let set = try manager.run([binary, "set", "tips-and-updates", "on"], ["TZ": tz])
        #expect(set.status == 0 && set.stdout.contains("with systemd"), "\(set)")
        try user.entriesFromYesterday()
        // What the timer starts at 09:00 (started by hand: 09:00 has passed today, nothing was shown).
        let units = user.home + "/.config/systemd/user"
        let timer = try #require(((try? FileManager.default.contentsOfDirectory(atPath: units)) ?? []).first { $0.hasPrefix("notif-tips-and-updates") && $0.hasSuffix(".timer") },
                                 "no timer in \(units)")
        let serviceUnit = String(timer.dropLast(".timer".count)) + ".service"
        let start = try manager.run(["systemctl", "--user", "start", serviceUnit])
        #expect(start.status == 0, "\(start)")
        let log = user.read(user.stateDir + "/deliveries.jsonl") ?? ""
        #expect(log.contains("with Turn off and Settings"), "\(log)")
        let unit = try manager.run(["systemctl", "--user", "show", "-p", "ActiveState", serviceUnit])
        #expect(unit.stdout == "ActiveState=inactive\n", "the service is over: \(unit)")
        #expect(waitUntil(15) { user.read(user.settingsPath)?.contains("\"tipsAndUpdates\": false") == true }, "the waiter died with the service")
        #expect(waitUntil(10) { !FileManager.default.fileExists(atPath: units + "/" + timer) })
        #expect(service.notifications().count == 1)
    }

    /// dunst, the real notification service: the reminder comes with notif's icon (the SVG as
    /// installed), and its waiter leaves when dunst closes the notification.
    @Test(.enabled(if: isRoot, "needs root for a throwaway user"), .hangGuard)
    func dunstShowsItWithNotifsIconAndTheWaiterLeavesWhenItCloses() throws {
        let user = try TestUser.make("notif-tr14-dunst")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display)
        let icon = user.home + "/.local/share/icons/hicolor/scalable/apps/notif.svg"
        #expect(try user.run(["sh", "-c", "mkdir -p \"${0%/*}\" && cat > \"$0\"", icon], input: String(contentsOfFile: Self.svg, encoding: .utf8)).status == 0)
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5)]) { $1 }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        try user.entriesFromYesterday()
        let deliver = try user.run([binary, "deliver", "tips-and-updates"], env)
        #expect(deliver.status == 0 && deliver.stdout.contains("with Turn off and Settings"), "\(deliver)")
        #expect(Waiters.find(DetachedActionWaiterName.command, uid: user.uid).count == 1, "the waiter waits while it is shown")
        let shown = try session.history()
        #expect(shown.count == 1 && shown.first?["appname"] == "notif" && shown.first?["summary"] == "Tips & Updates", "\(shown)")
        #expect(shown.first?["icon_path"] == icon, "\(shown)")
        // history() closed it: the waiter goes.
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, uid: user.uid).isEmpty })
        withExtendedLifetime(display) {}
    }

    /// A bubble with buttons does not expire on its own (expire_timeout 0): dunst, whose default
    /// timeout is 10 s, still shows it after 12 s and emits no NotificationClosed; the waiter takes
    /// it away when its life ends (shortened here with --wait-at-most, as tests do).
    @Test(.enabled(if: isRoot, "needs root for a throwaway user"), .hangGuard)
    func theBubbleWithButtonsStaysUntilTheWaitersLifeEnds() throws {
        let user = try TestUser.make("notif-tr14-stay")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display)
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5)]) { $1 }
        try user.reminderDueToday(binary, env)
        // Every NotificationClosed on the bus, as dbus-monitor prints them.
        let monitorLog = sandbox.path + "/closed"
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        monitor.arguments = ["-u", user.name, "--", "env", "DBUS_SESSION_BUS_ADDRESS=\(session.busAddress)", "dbus-monitor",
                             "type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'"]
        _ = FileManager.default.createFile(atPath: monitorLog, contents: nil)
        monitor.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: monitorLog))
        try monitor.run()
        defer { monitor.terminate(); monitor.waitUntilExit() }
        #expect(waitUntil(10) { (try? String(contentsOfFile: monitorLog, encoding: .utf8))?.contains("NameAcquired") == true }, "dbus-monitor did not start")
        func displayed() -> Int { Int((try? user.run(["dunstctl", "count", "displayed"], env))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1 }

        // The waiter as deliver starts it, with a life of 20 s instead of 8 hours.
        let waiter = Process()
        waiter.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        waiter.arguments = ["-u", user.name, "--", "env"] + env.map { "\($0.key)=\($0.value)" } + ["HOME=\(user.home)",
                            binary, DetachedActionWaiterName.command, "tips-and-updates", "--show-within", "5000", "--wait-at-most", "20"]
        let out = Pipe()
        waiter.standardOutput = out
        let started = Date()
        try waiter.run()
        let line = String(decoding: out.fileHandleForReading.readData(ofLength: 8), as: UTF8.self)
        #expect(line.hasPrefix("shown "), "\(line)")
        #expect(waitUntil(10) { displayed() == 1 }, "dunst shows it")
        // One bounded wait, stated: past dunst's 10 s default timeout (the old expire_timeout).
        Thread.sleep(forTimeInterval: max(0, 12 - Date().timeIntervalSince(started)))
        #expect(displayed() == 1, "the bubble with buttons expired")
        let closedEarly = (try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? ""
        #expect(!closedEarly.contains("member=NotificationClosed"), "closed before the waiter's life ended:\n\(closedEarly)")
        #expect(waiter.isRunning, "the waiter left while its bubble was shown")
        // Its life ends: it closes the bubble (reason 3, closed by a call) and exits.
        #expect(waitUntil(60) { !waiter.isRunning }, "the waiter outlived its life")
        #expect(Date().timeIntervalSince(started) >= 20)
        #expect(waitUntil(10) { displayed() == 0 })
        #expect(waitUntil(10) { ((try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? "").contains("uint32 3") },
                "no NotificationClosed by CloseNotification")
        withExtendedLifetime(display) {}
    }

    static let svg: String = {
        let filePath: String = #filePath
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/notif.svg").path
    }()

    @Test(.hangGuard)
    func settingsOpensThePageInATerminalOrThroughTheDesktopEntryAndSaysWhenNeitherWorks() throws {
        // A display root serves: one nobody serves is not used (doc/security.md).
        let display = try XServer(nil)
        for scenario in ["terminal", "gio", "neither", "no display"] {
            let sandbox = Sandbox()
            let service = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2])
            let fakes = try FakeTools(in: sandbox)
            let record = sandbox.path + "/launched"
            try fakes.add("x-terminal-emulator", scenario == "terminal" ? "printf '%s\\n' x-terminal-emulator \"$@\" > '\(record)'" : "exit 1")
            // Without a display the real `gio launch` exits 0 having opened nothing.
            try fakes.add("gio", scenario == "gio" ? "printf '%s\\n' gio \"$@\" > '\(record)'"
                          : scenario == "no display" ? "printf '%s\\n' gio \"$@\" > '\(record)'; exit 0" : "echo 'gio: no such app' >&2; exit 2")
            let data = sandbox.path + "/data"
            try sandbox.write("[Desktop Entry]\n", to: data + "/applications/notif.desktop")
            let env = try prepared(sandbox, service, fakes: fakes, extra: ["XDG_DATA_HOME": data].merging(scenario == "no display" ? [:] : ["DISPLAY": display.display]) { $1 })
            let deliver = try sandbox.notif(["deliver", "tips-and-updates"], env)
            #expect(deliver.status == 0 && deliver.stdout.contains("with Turn off and Settings"), "\(scenario): \(deliver)")
            switch scenario {
            case "terminal":
                #expect(waitUntil(10) { sandbox.read(record) == "x-terminal-emulator\n-e\n\(NotifBinary.path)\n" }, "\(String(describing: sandbox.read(record)))")
            case "gio":
                #expect(waitUntil(10) { sandbox.read(record) == "gio\nlaunch\n\(data)/applications/notif.desktop\n" }, "\(String(describing: sandbox.read(record)))")
            default:
                #expect(waitUntil(10) { service.notifications().count == 2 }, "\(service.notifications())")
                let told = service.notifications().last
                #expect(told?["summary"] as? String == "notif's settings could not be opened", "\(String(describing: told))")
                let why = scenario == "neither" ? "gio exit status 2: gio: no such app" : "there is no graphical session"
                #expect((told?["body"] as? String)?.contains(why) == true && (told?["body"] as? String)?.contains("Run notif in a terminal") == true,
                        "\(String(describing: told))")
                #expect(told?["actions"] as? [String] == [], "\(String(describing: told))")
                #expect(sandbox.read(record) == nil, "nothing is launched without a display")
                // And it is in the delivery log, as `notif history` shows it.
                let history = try sandbox.notif(["history"], env)
                let line = history.stdout.split(separator: "\n").first { $0.contains("failed (button)") } ?? ""
                #expect(line.contains("tips-and-updates  failed (button): Settings pressed on the notification, but notif's settings could not be opened: ")
                        && line.contains(why), "\(history)")
            }
            #expect(sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": true") == true, "Settings changes nothing")
            #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home").isEmpty }, "the waiter stayed")
        }
    }

    /// dunst, mako and lxqt-notificationd keep a bubble shown after its button was pressed (no
    /// NotificationClosed): the waiter takes it away, so no button is left that does nothing.
    @Test(.hangGuard)
    func aBubbleTheServiceKeepsAfterAButtonIsClosedByTheWaiter() throws {
        let sandbox = Sandbox()
        let service = try FakeNotificationService(config: ["invoke": "turn-off", "invoke_after": 0.2, "keep_after_invoke": true])
        let env = try prepared(sandbox, service)
        #expect(try sandbox.notif(["deliver", "tips-and-updates"], env).stdout.contains("with Turn off and Settings"))
        #expect(waitUntil(15) { sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": false") == true })
        #expect(waitUntil(10) { service.closed() == [1] }, "\(service.closed())")
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home").isEmpty }, "the waiter stayed")
    }

    @Test(.hangGuard)
    func aServiceWithoutActionsGetsTheBubbleWithoutButtonsAndNoWaiter() throws {
        let sandbox = Sandbox()
        let service = try FakeNotificationService(config: ["capabilities": ["body", "icon-static"], "invoke": "turn-off"])
        let env = try prepared(sandbox, service)
        let deliver = try sandbox.notif(["deliver", "tips-and-updates"], env)
        #expect(deliver.status == 0 && deliver.stdout.contains("; accepted by the notification service through this session as notification 1\n"), "\(deliver)")
        let sent = try #require(service.notifications().first)
        #expect(sent["actions"] as? [String] == [] && (sent["hints"] as? [String: String])?["desktop-entry"] == "notif", "\(sent)")
        // It exits right after its answer (a moment later than the answer itself).
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home").isEmpty }, "a waiter stayed")
        // And `notif test` never offers buttons, whatever the service supports.
        try service.configure(["capabilities": ["actions", "body"]])
        #expect(try sandbox.notif(["test"], env).status == 0)
        #expect(service.notifications().last?["actions"] as? [String] == [])
    }

    @Test(.hangGuard)
    func theWaiterEndsWhenTheNotificationClosesOrAtItsLimit() throws {
        let sandbox = Sandbox()
        let home = sandbox.path + "/home"
        let service = try FakeNotificationService(config: ["close_after": 0.5])
        let env = try prepared(sandbox, service)
        #expect(try sandbox.notif(["deliver", "tips-and-updates"], env).stdout.contains("with Turn off and Settings"))
        #expect(waitUntil(10) { Waiters.find(DetachedActionWaiterName.command, home: home).isEmpty }, "the waiter outlived its notification")
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": true") == true)

        // A notification that is never closed: the waiter gives up at its limit and takes it away.
        try service.configure([:])
        sandbox.notSentToday()
        let start = Date()
        let waiter = try sandbox.notif([DetachedActionWaiterName.command, "tips-and-updates", "--show-within", "5000", "--wait-at-most", "1"], env)
        #expect(waiter.status == 0 && waiter.stdout == "shown through this session as notification 2, with Turn off and Settings\n", "\(waiter)")
        #expect(Date().timeIntervalSince(start) >= 1, "it left before its limit")
        #expect(service.closed() == [2], "\(service.closed())")
    }
}

/// The hidden command's name, as the tests spell it.
enum DetachedActionWaiterName {
    static let command = "__reminder-actions"
}
