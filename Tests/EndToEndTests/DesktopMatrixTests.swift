import Foundation
import Testing
import TestSupport

/// The reminder and `notif test` on each desktop's real notification server, started headless
/// (`HeadlessDesktop`), through the release binary as a throwaway user, with cron as the
/// scheduler: the bubble is seen (a window, the server's own list or a screenshot: never only
/// notif's word), Turn off turns the reminder off in the settings and in the crontab, and
/// Settings reaches notif, each once whatever the server signals after a button; `notif test`
/// has no buttons; under the server's Do Not Disturb, what notif is told. `make test` runs the
/// quick servers, `make desktops` all of them (`NOTIF_DESKTOPS`) and makes doc/desktops.md from
/// the rows each case writes.
@Suite struct DesktopMatrixTests {
    static let title = "Tips & Updates"
    static let body = "Your daily tip: see what is new and get more out of the app."
    static let testTitle = "notif test notification"

    @Test(.enabled(if: isRoot, "needs root for a throwaway user"), .hangGuard, arguments: NotificationServer.chosen)
    func theReminderAndTheTestNotification(on server: NotificationServer) throws {
        var row = DesktopRow(server: server)
        try FileManager.default.createDirectory(atPath: DesktopRow.directory, withIntermediateDirectories: true)
        defer { row.write() }
        let user = try TestUser.make("notif-tr20-" + server.tag)
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.releaseCopy(in: sandbox)
        // notif's icon and desktop entry where `make install PREFIX=~/.local` puts them.
        let icon = user.home + "/.local/share/icons/hicolor/scalable/apps/notif.svg"
        let entry = try String(contentsOfFile: ReminderActionsTests.svg.replacing("notif.svg", with: "notif.desktop"), encoding: .utf8)
            .replacing("Exec=notif", with: "Exec=\(binary)").replacing("TryExec=notif", with: "TryExec=\(binary)")
        for (path, text) in [(icon, try String(contentsOfFile: ReminderActionsTests.svg, encoding: .utf8)),
                             (user.home + "/.local/share/applications/notif.desktop", entry)] {
            #expect(try user.run(["sh", "-c", "mkdir -p \"${0%/*}\" && cat > \"$0\"", path], input: text).status == 0)
        }

        let desktop = try HeadlessDesktop(server, user: user)
        row.information = desktop.information
        row.package = server.packages[0] + " " + (try EndToEndTests.run(["dpkg-query", "-W", "-f", "${Version}", server.packages[0]],
                                                                         environment: ["PATH": "/usr/bin:/bin"]).stdout)
        row.startSeconds = desktop.startSeconds
        // Two configurations of notif for the user (one per button: a reminder shows once a
        // day), each with cron, turned on in a zone where it is 08:55 and delivered in one where
        // it is 09:05 (a reminder turned on after 09:00 shows first the next day).
        let tz = ZoneShift.whereItIs(9, 5), early = ZoneShift.whereItIs(8, 55)
        func configuration(_ name: String, _ zone: String) -> [String: String] {
            ["XDG_CONFIG_HOME": user.home + "/\(name)/config", "XDG_STATE_HOME": user.home + "/\(name)/state", "TZ": zone, "NOTIF_SCHEDULER": "cron"]
        }
        func notif(_ args: [String], _ name: String) throws -> RunResult {
            try desktop.run([binary] + args, configuration(name, args.first == "set" || args.first == "permission" ? early : tz))
        }
        func settings(_ name: String) -> String { user.read(user.home + "/\(name)/config/notif/settings.json") ?? "" }
        func log(_ name: String) -> [[String: Any]] {
            (user.read(user.home + "/\(name)/state/notif/deliveries.jsonl") ?? "").split(separator: "\n")
                .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
        for name in ["off", "settings"] {
            #expect(try notif(["permission", "grant"], name).status == 0)
            let on = try notif(["set", "tips-and-updates", "on"], name)
            #expect(on.status == 0, "\(on)")
        }
        let crontab = try user.crontab()
        #expect(crontab.contains(user.home + "/off/config/notif/settings.json") && crontab.contains(user.home + "/settings/config/notif/settings.json"), "\(crontab)")

        // 1. The reminder, and Turn off.
        var before = try desktop.before()
        let delivered = try notif(["deliver", "tips-and-updates"], "off")
        // notif says what it knows: the service accepted it (its answer is no proof of a bubble).
        // 09:05 when set up, or a minute or two later on a loaded machine.
        #expect(delivered.status == 0 && delivered.stdout.contains("delivered: sent 09:0")
                && delivered.stdout.contains("accepted by the notification service through this session as notification ")
                && delivered.stdout.contains("with Turn off and Settings"), "\(delivered)")
        var sent: BusRecord.Notify?
        #expect(waitUntil(10) { sent = desktop.monitor.notify(summary: Self.title); return sent?.id != nil }, "no Notify on the bus: \(delivered)")
        let reminder = try #require(sent)
        #expect(reminder.app == "notif" && reminder.body == Self.body && reminder.icon == icon, "\(reminder)")
        #expect(reminder.actions == ["turn-off", "Turn off", "settings", "Settings"], "\(reminder)")
        #expect(reminder.hints["desktop-entry"] == "string \"notif\"", "\(reminder)")
        let bubble = try #require(try desktop.bubble(Self.title, since: before), "\(server.rawValue) did not show the reminder")
        row.reminder = bubble.evidence
        try desktop.saveBubble(bubble, to: row.screenshot)

        try desktop.press("Turn off", key: "turn-off", on: bubble)
        let turnedOff = waitUntil(20) { settings("off").contains("\"tipsAndUpdates\": false") }
        #expect(turnedOff, "Turn off did not turn the reminder off: \(settings("off"))")
        let unscheduled = waitUntil(10) { (try? user.crontab().contains(user.home + "/off/config")) == false }
        #expect(unscheduled, "the entry stayed in the crontab: \(String(describing: try? user.crontab()))")
        #expect(waitUntil(15) { (try? desktop.clients(running: binary).isEmpty) == true }, "notif stayed on the bus after Turn off")
        let presses = log("off").filter { $0["outcome"] as? String == "turned-off" }
        #expect(presses.count == 1, "\(log("off"))")
        row.turnOff = turnedOff && unscheduled && presses.count == 1 ? "off in settings and crontab, recorded once" : "FAILED"
        row.signals = desktop.monitor.signals(for: reminder.id!).joined(separator: ", ")
        #expect(desktop.monitor.signals(for: reminder.id!).first == "ActionInvoked turn-off", "\(row.signals)")
        row.afterTurnOff = try desktop.slowly(5) { try desktop.isGone(bubble) } ? "closed" : "still shown"
        #expect(try notif(["status"], "settings").stdout.contains("cron"), "the other configuration keeps its reminder")

        // 2. Settings, on the other configuration's reminder.
        try desktop.waitForNoBanner()
        before = try desktop.before()
        #expect(try notif(["deliver", "tips-and-updates"], "settings").status == 0)
        let second = try #require(try desktop.bubble(Self.title, since: before), "\(server.rawValue) did not show the second reminder")
        try desktop.press("Settings", key: "settings", on: second)
        // The page in a terminal (x-terminal-emulator -e notif), or a failure notif records and says.
        var page: [pid_t] = []
        var failure: String?
        let answered = waitUntil(20) {
            page = Self.pages(of: binary, uid: user.uid)
            failure = log("settings").last { $0["kind"] as? String == "button" }?["detail"] as? String
            return !page.isEmpty || failure != nil
        }
        #expect(answered, "Settings did nothing")
        // Once, whatever the server signals after the press (GNOME Shell on Wayland sends ActionInvoked twice).
        var secondCall: BusRecord.Notify?
        #expect(waitUntil(5) { secondCall = desktop.monitor.notify(summary: Self.title); return secondCall?.id.map { $0 != reminder.id } == true })
        let settingsSignals = secondCall?.id.map { desktop.monitor.signals(for: $0) } ?? []
        #expect(settingsSignals.first == "ActionInvoked settings", "\(settingsSignals)")
        #expect(!desktop.slowly(3) { Self.pages(of: binary, uid: user.uid).count > 1
                || log("settings").filter { $0["kind"] as? String == "button" }.count > 1 }, "Settings acted twice: \(settingsSignals)")
        row.settingsSignals = settingsSignals.joined(separator: ", ")
        #expect(settings("settings").contains("\"tipsAndUpdates\": true"), "Settings changed the setting")
        row.settings = !page.isEmpty ? "opened the page in a terminal" : failure.map { "not opened: " + Self.short($0.replacing("Settings pressed on the notification, but notif's settings could not be opened: ", with: "")) } ?? "FAILED"
        page.forEach { kill($0, SIGKILL) }

        // 3. `notif test`: the bubble without buttons.
        try desktop.waitForNoBanner()
        before = try desktop.before()
        let test = try notif(["test"], "settings")
        #expect(test.status == 0, "\(test)")
        let testBubble = try desktop.bubble(Self.testTitle, since: before)
        #expect(testBubble != nil, "\(server.rawValue) did not show the test notification")
        #expect(desktop.monitor.notify(summary: Self.testTitle)?.actions == [], "the test notification has buttons")
        row.test = testBubble.map { "seen: " + $0.evidence } ?? "not seen"

        // 4. A server without actions (mako told to ignore them): the plain bubble, no waiter.
        if server == .mako {
            #expect(try desktop.run(["sh", "-c", "sed -i '1i actions=0' \"$HOME/.config/mako/config\" && makoctl reload"]).status == 0)
            #expect(waitUntil(10) { (try? desktop.notifications("GetCapabilities").stdout.contains("'actions'")) == false })
            #expect(try notif(["permission", "grant"], "plain").status == 0 && notif(["set", "tips-and-updates", "on"], "plain").status == 0)
            before = try desktop.before()
            #expect(try notif(["deliver", "tips-and-updates"], "plain").status == 0)
            let plain = try desktop.bubble(Self.title, since: before)
            let call = desktop.monitor.notify(summary: Self.title)
            #expect(plain != nil && call?.actions == [], "\(String(describing: call))")
            #expect(waitUntil(10) { (try? desktop.clients(running: binary).isEmpty) == true }, "a waiter for buttons that cannot come")
            row.plain = plain != nil && call?.actions == [] ? "with `actions=0`: the bubble without buttons, seen, no waiter" : "FAILED"
            // mako never expires a bubble unless told: these two go before Do Not Disturb.
            #expect(try desktop.run(["makoctl", "dismiss", "--all"]).status == 0)
        }

        // 5. Do Not Disturb: notif is told "accepted" (an id); is anything shown?
        try desktop.waitForNoBanner()
        guard try desktop.doNotDisturb() else {
            row.dnd = "none"
            return
        }
        before = try desktop.before()
        let quiet = try notif(["test"], "settings")
        #expect(quiet.status == 0 && quiet.stdout.contains("accepted by the notification service") && !quiet.stdout.contains("shown"), "\(quiet)")
        row.dndNotifSaid = quiet.status == 0 ? "exit 0: \(Self.short(quiet.stdout))" : "exit \(quiet.status)"
        // Three seconds to show it, stated: what is asserted is that it is not shown.
        let shownAnyway = try desktop.bubble(Self.testTitle, since: before, within: 3, onScreen: true)
        #expect(shownAnyway == nil, "shown despite Do Not Disturb: \(String(describing: shownAnyway?.evidence))")
        row.dnd = shownAnyway == nil ? "accepted, not shown" : "shown"
    }

    /// notif's page started by Settings: `PROGRAM` with no arguments, run by `uid`.
    static func pages(of program: String, uid: String) -> [pid_t] {
        Waiters.find(program, uid: uid).filter { pid in
            let words = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).split(separator: 0)
            return words.count == 1 && String(decoding: words[0], as: UTF8.self) == program
        }
    }

    /// One line of text, at most 110 characters.
    static func short(_ text: String) -> String {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines).replacing("\n", with: " ").replacing("|", with: "/")
        return line.count > 110 ? String(line.prefix(109)) + "…" : line
    }
}

/// What one server did, as rows of doc/desktops.md's tables (written by `make desktops`).
struct DesktopRow {
    let server: NotificationServer
    var information = "not started"
    /// Its Debian package and version (mako calls itself 0.0.0).
    var package = ""
    var startSeconds: Double?
    var reminder = "not reached", turnOff = "not reached", signals = "", afterTurnOff = "", settings = "not reached", settingsSignals = ""
    var test = "not reached", plain = "", dnd = "not reached", dndNotifSaid = ""

    init(server: NotificationServer) { self.server = server }

    /// Where rows and screenshots go: `NOTIF_DESKTOPS_RESULTS`, else .build/desktops.
    static var directory: String {
        if let dir = ProcessInfo.processInfo.environment["NOTIF_DESKTOPS_RESULTS"], !dir.isEmpty { return dir }
        let filePath: String = #filePath
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/desktops").path
    }

    var prefix: String {
        let index = NotificationServer.allCases.firstIndex(of: server)!
        return Self.directory + "/" + String(format: "%02d", index) + "-" + server.rawValue
    }

    var screenshot: String { Self.directory + "/desktop-\(server.rawValue).png" }

    func write() {
        try? FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        let name = information.split(separator: "'").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let named = (name.count >= 3 ? "\(name[0]) \(name[2])" : information) + (package.isEmpty ? "" : " (Debian \(package))")
        let started = startSeconds.map { String(format: "%.1f s", $0) } ?? "—"
        let turnOffCell = turnOff + (signals.isEmpty ? "" : "; then \(signals)") + (afterTurnOff.isEmpty ? "" : "; bubble \(afterTurnOff)")
        let settingsCell = settings + (settingsSignals.isEmpty ? "" : "; then \(settingsSignals)")
        let cells = [server.desktop, named, started, reminder, turnOffCell, settingsCell, test + (plain.isEmpty ? "" : "; \(plain)")]
        let dndCells = [server.desktop, dnd, dndNotifSaid.isEmpty ? "—" : dndNotifSaid, server.doNotDisturbTold]
        let text = "| " + cells.joined(separator: " | ") + " |\n"
        let dndText = "| " + dndCells.joined(separator: " | ") + " |\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: prefix + ".row"))
        try? Data(dndText.utf8).write(to: URL(fileURLWithPath: prefix + ".dnd"))
    }
}
