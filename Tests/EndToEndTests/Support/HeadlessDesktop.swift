import Foundation
import TestSupport

/// One desktop's notification server started headless for a throwaway user, as
/// ../shared/RECIPES.md shows: a private session bus of the user's, the screen the server needs
/// (Xvfb, a headless sway, or GNOME Shell's own virtual monitor), and the server itself, checked
/// by `GetServerInformation` before anything is sent (a `Notify` to a server not up yet could
/// have started another one through its activation file). A `dbus-monitor` records every
/// `Notify`, its reply and every signal of the notification interface. Everything the user runs
/// ends with it (`pkill -u`: the user is the test's own, so activated helpers such as
/// dconf-service and xfconfd go too).
final class HeadlessDesktop {
    let server: NotificationServer
    let user: TestUser
    /// The user's XDG_RUNTIME_DIR: the bus sockets, sway's sockets, screenshots, the monitor's log.
    let directory: String
    /// The session's variables, as a terminal on this desktop has them.
    private(set) var environment: [String: String]
    /// `GetServerInformation`'s answer, as gdbus prints it.
    private(set) var information = ""
    /// Seconds from starting the server to its bus name.
    private(set) var startSeconds = 0.0
    private var processes: [BackgroundProcess] = []
    private var display: VirtualDisplay?
    private var baseline: String?
    private let monitorLog: String

    init(_ server: NotificationServer, user: TestUser) throws {
        self.server = server
        self.user = user
        directory = "/tmp/notif-desk-" + UUID().uuidString.prefix(8).lowercased()
        monitorLog = directory + "/monitor.log"
        environment = ["XDG_RUNTIME_DIR": directory, "NO_AT_BRIDGE": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/bus"]
            .merging(server.environment) { $1 }
        let root = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        _ = try EndToEndTests.run(["sh", "-c", "mkdir -m 700 \"$0\" && chown \"$1:\" \"$0\"", directory, user.name], environment: root)
        // The screen before the bus: programs the bus starts (kglobalaccel for Plasma) get its variables.
        switch server.screen {
        case .xvfb:
            let display = try VirtualDisplay(size: "1280x800")
            self.display = display
            environment["DISPLAY"] = display.display
        case .sway:
            try startSway()
        case .gnomeHeadless:
            break
        }
        try startBus(at: directory + "/bus")
        if server.screen == .gnomeHeadless || server == .gnomeX11 {
            // GNOME Shell asks logind and others on the system bus: a second private bus, where those calls fail softly.
            try startBus(at: directory + "/system")
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory)/system"
        }
        processes.append(try start(["/usr/bin/dbus-monitor", "--session", "interface='org.freedesktop.Notifications'", "type='method_return'"],
                                   output: monitorLog))
        for (path, text) in server.files {
            let written = try user.run(["sh", "-c", "mkdir -p \"${0%/*}\" && cat > \"$0\"", user.home + "/" + path], input: text)
            guard written.status == 0 else { throw E2EFailure("writing ~/\(path): \(written)") }
        }
        if server == .dunst {
            try write(DesktopTools.dmenuScript, to: DesktopTools.dmenuPicker, mode: 0o755)
        }
        if case .gnome = server.press {
            try write(DesktopTools.gnomeShellScript, to: directory + "/gnome_shell.py", mode: 0o755)
        }
        let started = Date()
        processes.append(try start(server.command(home: user.home), output: directory + "/server.log"))
        // The name is waited for without asking the bus to start anyone.
        guard slowly(server.startsWithin, { (try? self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                                "org.freedesktop.Notifications").stdout.contains("true")) == true }) else {
            throw E2EFailure("\(server.rawValue) did not take org.freedesktop.Notifications within \(server.startsWithin) s:\n"
                             + String(((try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "").suffix(2000)))
        }
        startSeconds = Date().timeIntervalSince(started)
        if server.screen == .gnomeHeadless,
           let socket = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
            environment["WAYLAND_DISPLAY"] = socket   // as the session's programs have it
        }
        // A server may take the name before it answers (GNOME Shell's first call can time out).
        var answer: RunResult?
        _ = slowly(20) {
            answer = try? self.notifications("GetServerInformation")
            return answer?.status == 0
        }
        information = (answer?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard information.hasPrefix("('\(server.serverName)',") else {
            throw E2EFailure("org.freedesktop.Notifications is not \(server.serverName): \(String(describing: answer))")
        }
        try settle()
    }

    deinit {
        _ = try? EndToEndTests.run(["pkill", "-KILL", "-u", user.name], environment: ["PATH": "/usr/bin:/bin"])
        if server == .dunst { [DesktopTools.dmenuPicker, DesktopTools.dmenuPick].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        processes.removeAll()
        display = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: starting

    /// Starts `argv` as the user with the session's variables, its output to `output`.
    func start(_ argv: [String], output: String? = nil) throws -> BackgroundProcess {
        let env = user.environment(environment)
        return try BackgroundProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + argv,
                                     environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: output ?? "/dev/null")
    }

    /// Runs `argv` as the user on this session, with `extra` variables too.
    func run(_ argv: [String], _ extra: [String: String] = [:], input: String? = nil) throws -> RunResult {
        try user.run(argv, environment.merging(extra) { $1 }, input: input)
    }

    private func startBus(at socket: String) throws {
        processes.append(try start(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=unix:path=\(socket)"]))
        guard waitUntil(10, { FileManager.default.fileExists(atPath: socket) }) else { throw E2EFailure("no bus at \(socket)") }
    }

    /// sway without outputs or input devices of its own (and without Xwayland), as the user:
    /// it refuses to run as root.
    private func startSway() throws {
        try write("xwayland disable\noutput HEADLESS-1 resolution 1280x800\n", to: directory + "/sway.conf", mode: 0o644)
        environment.merge(["WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"]) { $1 }
        processes.append(try start(["/usr/bin/sway", "-c", directory + "/sway.conf"], output: directory + "/sway.log"))
        let dir = directory
        var files: [String] = []
        guard waitUntil(20, {
            files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            return files.contains { $0.hasPrefix("sway-ipc.") } && files.contains { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
        }) else { throw E2EFailure("sway did not start: \(String(describing: try? String(contentsOfFile: dir + "/sway.log", encoding: .utf8)))") }
        environment["SWAYSOCK"] = dir + "/" + files.first { $0.hasPrefix("sway-ipc.") }!
        environment["WAYLAND_DISPLAY"] = files.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }!
        if case .sway = server.press {
            // A virtual pointer for the seat: wayvnc makes one (no VNC client needed).
            processes.append(try start(["/usr/bin/wayvnc", "127.0.0.1", String(5900 + Int(getpid() % 90))], output: directory + "/wayvnc.log"))
            guard slowly(10, { ((try? self.run(["swaymsg", "-t", "get_seats", "-r"]).stdout) ?? "").contains("pointer") }) else {
                throw E2EFailure("wayvnc gave sway no pointer")
            }
        }
    }

    /// What each server needs before a notification can be seen and clicked.
    private func settle() throws {
        switch server {
        case .plasma:
            // Its panel is up (the bubbles are placed above it).
            guard slowly(30, { self.visibleWindows(of: "plasmashell").contains { $0.width == 1280 && $0.height < 100 } }) else {
                throw E2EFailure("Plasma's panel did not come up")
            }
        case .gnomeWayland, .gnomeX11:
            // It starts in the overview: a click leaves it. Its own startup banners expire only
            // while the pointer moves (it never expires a banner while the session is idle).
            _ = try gnome("click", 640, 400)
            try waitForNoBanner()
        default:
            break
        }
        baseline = try screenshot()
    }

    // MARK: the bus

    /// A gdbus call on the session bus (`destination`, `path`, `method`, `arguments`).
    func call(_ destination: String, _ path: String, _ method: String, _ arguments: String...) throws -> RunResult {
        try run(["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments)
    }

    func notifications(_ method: String, _ arguments: String...) throws -> RunResult {
        try run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                 "--method", "org.freedesktop.Notifications." + method] + arguments)
    }

    /// The pids of every connection to the session bus that runs `program` (notif's waiter
    /// for a bubble's buttons, whatever its command line): none once notif is done.
    func clients(running program: String) throws -> [pid_t] {
        let names = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames").stdout
        let unique = names.split(separator: "'").filter { $0.hasPrefix(":1.") }
        return try unique.compactMap { name in
            let answer = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", String(name))
            guard answer.status == 0, let pid = pid_t(answer.stdout.filter(\.isNumber).dropFirst(2)) else { return nil }   // "(uint32 N,)"
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            return exe == program ? pid : nil
        }
    }

    /// What the monitor saw so far.
    var monitor: BusRecord { BusRecord(parsing: (try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? "") }

    // MARK: seeing a bubble

    /// Where a bubble was seen, and how.
    struct Sighting {
        let evidence: String
        /// Its window on the screen (servers that draw a window per bubble).
        var window: Rect?
        /// Its id in the server's own list (mako).
        var listed: Int?
    }

    struct Rect: Equatable {
        let x, y, width, height: Int
        let id: String
    }

    /// What was on the screen before a notification, to tell its bubble from what was there.
    struct Before {
        let windows: [Rect]
        let count: Int
    }

    func before() throws -> Before {
        Before(windows: server.bubbleClass.map { visibleWindows(of: $0) } ?? [], count: try count())
    }

    /// The number of bubbles as the server's own tools count them (dunst, mako, swaync), else 0.
    func count() throws -> Int {
        switch server {
        case .dunst: return Int(try run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        case .swaync: return Int(try run(["swaync-client", "--count"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        case .mako: return makoList().count
        default: return 0
        }
    }

    /// mako's list (`makoctl list`): id and summary of each bubble.
    func makoList() -> [(id: Int, summary: String)] {
        guard let text = try? run(["makoctl", "list"]).stdout,
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let groups = object["data"] as? [[[String: Any]]] else { return [] }
        return groups.flatMap { $0 }.compactMap { item in
            guard let id = (item["id"] as? [String: Any])?["data"] as? Int, let summary = (item["summary"] as? [String: Any])?["data"] as? String else { return nil }
            return (id, summary)
        }
    }

    /// Waits up to `seconds` for the bubble of `summary` to be shown: a new bubble window, the
    /// server's own list or count, or (GNOME Shell, which draws banners itself) the banner's
    /// place in a screenshot differing from the empty screen.
    /// With `onScreen`, a server's list does not count (mako and swaync list what Do Not Disturb hides).
    func bubble(_ summary: String, since before: Before, within seconds: Double = 10, onScreen: Bool = false) throws -> Sighting? {
        var found: Sighting?
        _ = try slowly(seconds) {
            if onScreen, server.screen == .sway {
                let changed = try self.bannerPixels()
                found = changed > 4000 ? Sighting(evidence: "a bubble in a screenshot (\(changed) pixels changed)") : nil
                return found != nil
            }
            found = try self.sighting(summary, since: before)
            return found != nil
        }
        return found
    }

    private func sighting(_ summary: String, since before: Before) throws -> Sighting? {
        if let bubbleClass = server.bubbleClass {
            let new = visibleWindows(of: bubbleClass).filter { window in
                !before.windows.contains(window) && window.width > 150 && window.height > 60 && window.width < 700
            }
            // Where it stays: Plasma's bubble slides into place.
            guard let window = new.first else { return nil }
            usleep(600_000)
            guard visibleWindows(of: bubbleClass).contains(window) else { return nil }
            return Sighting(evidence: "a new \(bubbleClass) window, \(window.width)x\(window.height)+\(window.x)+\(window.y)", window: window)
        }
        switch server {
        case .mako:
            return makoList().filter { $0.summary == summary }.max { $0.id < $1.id }.map { Sighting(evidence: "listed by makoctl list (id \($0.id))", listed: $0.id) }
        case .dunst, .swaync:
            let now = try count()
            let tool = server == .dunst ? "dunstctl count displayed" : "swaync-client --count"
            return now > before.count ? Sighting(evidence: "\(tool): \(before.count) → \(now)") : nil
        default:
            let changed = try bannerPixels()
            return changed > 4000 ? Sighting(evidence: "its banner in a screenshot (\(changed) pixels changed)") : nil
        }
    }

    /// Whether `sighting`'s bubble is no longer shown.
    func isGone(_ sighting: Sighting) throws -> Bool {
        if let window = sighting.window { return !visibleWindows(of: server.bubbleClass!).contains(window) }
        if let id = sighting.listed { return !makoList().contains { $0.id == id } }
        switch server {
        case .dunst, .swaync: return try count() == 0
        default: return try bannerPixels() < 1000
        }
    }

    /// The X11 windows of `windowClass` that are shown now, with their place.
    func visibleWindows(of windowClass: String) -> [Rect] {
        guard let ids = try? run(["xdotool", "search", "--onlyvisible", "--class", windowClass]).stdout else { return [] }
        return ids.split(separator: "\n").compactMap { id in
            guard let info = try? run(["xwininfo", "-id", String(id)]).stdout else { return nil }
            func value(_ label: String) -> Int? {
                info.split(separator: "\n").first { $0.contains(label) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
            }
            guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"), let w = value("Width"), let h = value("Height"),
                  info.contains("Map State: IsViewable") else { return nil }
            return Rect(x: x, y: y, width: w, height: h, id: String(id))
        }
    }

    /// `waitUntil` for checks that start programs: a fifth of a second between tries.
    func slowly(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        try waitUntil(seconds) {
            if try condition() { return true }
            usleep(200_000)
            return false
        }
    }

    // MARK: screenshots

    /// A screenshot of the whole screen, as a PNG in the session's directory; its path.
    func screenshot() throws -> String {
        let path = directory + "/shot-\(UUID().uuidString.prefix(6)).png"
        let made: RunResult
        switch server.screen {
        case .xvfb: made = try run(["import", "-window", "root", path])
        case .sway: made = try run(["grim", path])
        case .gnomeHeadless: made = try gnome("shot", path)
        }
        guard made.status == 0, FileManager.default.fileExists(atPath: path) else { throw E2EFailure("no screenshot of \(server.rawValue): \(made)") }
        return path
    }

    /// Where the server puts its first bubble (for servers without a window per bubble).
    var bubbleArea: (x: Int, y: Int, width: Int, height: Int) {
        switch server {
        case .gnomeWayland, .gnomeX11: return (340, 30, 600, 160)
        case .swaync: return (780, 0, 500, 150)
        default: return (880, 0, 400, 160)
        }
    }

    /// How many pixels of the banner's place differ from the empty screen (GNOME Shell).
    func bannerPixels() throws -> Int {
        guard let baseline else { return 0 }
        let shot = try screenshot()
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let area = bubbleArea
        let crop = "\(area.width)x\(area.height)+\(area.x)+\(area.y)"
        // `compare` prints the count on stderr and exits 1 when the pictures differ.
        let compared = try run(["compare", "-metric", "AE", "-fuzz", "10%", "(", baseline, "-crop", crop, ")", "(", shot, "-crop", crop, ")", "null:"])
        return Int(Double(compared.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").first ?? "") ?? -1)
    }

    /// Saves the bubble of `sighting` (its window and a margin, or the server's bubble area),
    /// as a small PNG at `path`.
    func saveBubble(_ sighting: Sighting, to path: String) throws {
        if server == .plasma { usleep(1_000_000) }   // its bubble fades in after it is placed
        let shot = try screenshot()
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let area = sighting.window.map { (x: max(0, $0.x - 10), y: max(0, $0.y - 10), width: $0.width + 20, height: $0.height + 20) } ?? bubbleArea
        let saved = try EndToEndTests.run(["convert", shot, "-crop", "\(area.width)x\(area.height)+\(area.x)+\(area.y)", "+repage", "-colors", "64", path],
                                          environment: ["PATH": "/usr/bin:/bin"])
        guard saved.status == 0 else { throw E2EFailure("convert: \(saved)") }
    }

    // MARK: pressing

    /// Presses the button labelled `label` ("Turn off", "Settings") on `sighting`'s bubble, as a
    /// person would: a click where the server draws it, or the server's own menu or tool.
    func press(_ label: String, key: String, on sighting: Sighting) throws {
        let turnOff = label == "Turn off"
        switch server.press {
        case .inWindow(let off, let settings):
            guard let window = sighting.window else { throw E2EFailure("no window to click") }
            let (dx, dy) = turnOff ? off : settings
            try checked(run(["xdotool", "mousemove", String(window.x + dx), String(window.y + dy), "click", "1"]))
            // A pointer resting on a bubble stops its time running out.
            _ = try run(["xdotool", "mousemove", "5", "795"])
        case .gnome(let hover, let off, let settings):
            // The banner shows its buttons while the pointer rests on it: over it, then to the button.
            let point = turnOff ? off : settings
            _ = try checked(gnome("click", hover.0, hover.1, point.0, point.1))
        case .sway(let off, let settings):
            let point = turnOff ? off : settings
            try checked(run(["swaymsg", "-q", "seat", "seat0", "cursor", "set", String(point.0), String(point.1)]))
            try checked(run(["swaymsg", "-q", "seat", "seat0", "cursor", "press", "button1"]))
            try checked(run(["swaymsg", "-q", "seat", "seat0", "cursor", "release", "button1"]))
            // sway draws the pointer into screenshots: away from the bubbles.
            try checked(run(["swaymsg", "-q", "seat", "seat0", "cursor", "set", "5", "795"]))
        case .dunstMenu:
            try write(label, to: DesktopTools.dmenuPick, mode: 0o644)
            try checked(run(["dunstctl", "context"]))
        case .makoctl:
            guard let id = sighting.listed else { throw E2EFailure("no id in mako's list") }
            try checked(run(["makoctl", "invoke", "-n", String(id), key]))
        }
    }

    @discardableResult
    private func checked(_ result: RunResult) throws -> RunResult {
        guard result.status == 0 else { throw E2EFailure("\(server.rawValue): \(result)") }
        return result
    }

    /// The GNOME Shell helper (Tests/Fixtures/gnome_shell.py) as the user.
    private func gnome(_ words: Any...) throws -> RunResult {
        if server == .gnomeX11, "\(words[0])" != "shot" {
            // On X11 the pointer is xdotool's: the same visits, the same rests.
            let points = stride(from: 1, to: words.count - 1, by: 2).flatMap { ["mousemove", "\(words[$0])", "\(words[$0 + 1])", "sleep", "0.8"] }
            return try run(["xdotool"] + points + ("\(words[0])" == "click" ? ["click", "1"] : []))
        }
        return try run(["/usr/bin/python3", directory + "/gnome_shell.py"] + words.map { "\($0)" })
    }

    /// Waits until no bubble is in the bubble area (sway's servers, GNOME Shell); GNOME Shell's
    /// pointer is moved about meanwhile (it expires banners only then).
    func waitForNoBanner(within seconds: Double = 40) throws {
        let gnome: Bool
        if case .gnome = server.press { gnome = true } else { gnome = false }
        guard gnome || server.screen == .sway else { return }
        var step = 0
        let empty = try slowly(seconds) {
            step += 1
            if gnome { _ = try self.gnome("move", 300 + (step % 8) * 40, 500) }
            return self.baseline == nil ? step > 12 : try self.bannerPixels() < 1000
        }
        guard empty else { throw E2EFailure("\(server.rawValue) kept a bubble for \(seconds) s") }
    }

    // MARK: Do Not Disturb

    /// Turns the server's Do Not Disturb on, and returns when it is on (as far as a client can
    /// tell); false when the server has none.
    func doNotDisturb() throws -> Bool {
        if server == .plasma {
            // An inhibition lasts while the connection that asked for it lives.
            processes.append(try start(["/usr/bin/python3", "-c", DesktopTools.inhibitScript], output: directory + "/inhibit.log"))
            guard slowly(15, { ((try? self.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties.Get",
                                                   "org.freedesktop.Notifications", "Inhibited").stdout) ?? "").contains("true") }) else {
                throw E2EFailure("Plasma's Inhibited did not become true")
            }
            return true
        }
        guard let command = server.doNotDisturb else { return false }
        try checked(run(command))
        if server == .lxqt {
            // It reads its configuration file again on its own, a second or two later; nothing says when.
            Thread.sleep(forTimeInterval: 3)
        }
        return true
    }

    private func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode_t(mode))
        _ = try EndToEndTests.run(["chown", user.name + ":", path], environment: ["PATH": "/usr/bin:/bin"])
    }
}

/// Small programs the desktops need, written into the session's directory.
enum DesktopTools {
    /// The dmenu dunst runs for its context menu: it picks the line of the button named in `dmenuPick`.
    static let dmenuPicker = "/tmp/notif-desk-dmenu"
    static let dmenuPick = dmenuPicker + ".pick"
    static let dmenuScript = """
        #!/bin/sh
        # dunst's context menu: one line per button ("#Turn off (Tips & Updates) [2,turn-off]"); pick the one asked for.
        grep -m1 -F "#$(cat \(dmenuPick)) ("

        """

    /// Holds Plasma's Do Not Disturb (an inhibition) for as long as it runs.
    static let inhibitScript = """
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        bus.call_sync('org.freedesktop.Notifications', '/org/freedesktop/Notifications', 'org.freedesktop.Notifications', 'Inhibit',
                      GLib.Variant('(ssa{sv})', ('notif-tests', 'Do Not Disturb', {})), None, 0, -1, None)
        GLib.MainLoop().run()
        """

    static let gnomeShellScript: String = {
        let filePath: String = #filePath
        let path = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gnome_shell.py").path
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()
}
