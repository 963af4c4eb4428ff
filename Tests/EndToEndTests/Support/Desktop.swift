import Foundation
import TestSupport
import LinuxGateway

/// A headless X display (Xvfb) any user may connect to, for dunst and the other X11 servers:
/// root's `XServer`, which picks a free display number itself.
final class VirtualDisplay {
    let display: String
    private let server: XServer

    init(size: String = "640x480") throws {
        server = try XServer(nil, size: size)
        display = server.display
    }
}

/// A user's private desktop session: its own D-Bus session bus with dunst as the notification
/// server, so notifications can be read back with `dunstctl history`.
final class DesktopSession {
    let user: TestUser
    let busAddress: String
    private let process: Process

    /// - Parameter busOutlivesDunst: the bus stays when dunst ends (by default dunst is the
    ///   session's program, and its end ends the bus too).
    init(user: TestUser, display: VirtualDisplay, busOutlivesDunst: Bool = false) throws {
        self.user = user
        let busFile = user.home + "/.notif-e2e-bus"
        try? FileManager.default.removeItem(atPath: busFile)
        let env = user.environment(["DISPLAY": display.display])
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", user.name, "--", "/usr/bin/env", "-i"] + assignments + [
            "dbus-run-session", "--", "sh", "-c",
            "printf '%s' \"$DBUS_SESSION_BUS_ADDRESS\" > \"$HOME/.notif-e2e-bus\"; "
                + (busOutlivesDunst ? "dunst -conf /dev/null & exec sleep 3600" : "exec dunst -conf /dev/null"),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var address = ""
        guard waitUntil(15, {
            address = user.read(busFile) ?? ""
            return !address.isEmpty
        }) else { throw E2EFailure("no session bus for \(user.name)") }
        busAddress = address
        let ready = try waitUntil(15) {
            try user.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"],
                         ["DBUS_SESSION_BUS_ADDRESS": address]).stdout.contains("true")
        }
        guard ready else { throw E2EFailure("dunst did not take org.freedesktop.Notifications for \(user.name)") }
    }

    /// The session's variables, as a desktop terminal would have them.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress] }

    /// The pid of the process that owns `name` on the session bus, or nil.
    func owner(of name: String) throws -> pid_t? {
        try busOwner(of: name, onBus: busAddress, as: user)
    }

    /// Summaries and app names of every notification shown so far.
    func shown() throws -> [(app: String, summary: String)] {
        try history().map { ($0["appname"] ?? "", $0["summary"] ?? "") }
    }

    /// Every notification shown so far, as dunst keeps it (`appname`, `summary`, `icon_path`…),
    /// its string fields only.
    func history() throws -> [[String: String]] {
        try dunstHistory(by: user, environment)
    }

    deinit {
        _ = try? EndToEndTests.run(["pkill", "-KILL", "-u", user.name], environment: ["PATH": "/usr/bin:/bin"])
        process.waitUntilExit()
    }
}

/// The pid of the process that owns `name` on the bus at `address` (the bus itself for
/// `org.freedesktop.DBus`), as the bus says; nil when nobody owns it. Asked as `user` (root when nil).
func busOwner(of name: String, onBus address: String, as user: TestUser? = nil) throws -> pid_t? {
    let argv = ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", name]
    let env = ["DBUS_SESSION_BUS_ADDRESS": address]
    let answer = try user.map { try $0.run(argv, env) } ?? EndToEndTests.run(argv, environment: env.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    // "(uint32 1234,)"
    guard answer.status == 0, let last = answer.stdout.split(separator: " ").last else { return nil }
    return pid_t(last.filter(\.isNumber))
}

/// Summaries and app names of every notification the dunst on the bus `environment` names has
/// shown to `user` so far (shown ones are closed first, which moves them to its history).
func dunstShown(by user: TestUser, _ environment: [String: String]) throws -> [(app: String, summary: String)] {
    try dunstHistory(by: user, environment).map { ($0["appname"] ?? "", $0["summary"] ?? "") }
}

/// Every notification that dunst has shown so far (`appname`, `summary`, `icon_path`…), its
/// string fields only; shown ones are closed first, which moves them to its history.
func dunstHistory(by user: TestUser, _ environment: [String: String]) throws -> [[String: String]] {
    _ = try user.run(["dunstctl", "close-all"], environment)
    let result = try user.run(["dunstctl", "history"], environment)
    guard let data = result.stdout.data(using: .utf8),
          let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let groups = object["data"] as? [[[String: Any]]] else {
        throw E2EFailure("dunstctl history: \(result)")
    }
    return groups.flatMap { $0 }.map { item in
        item.compactMapValues { ($0 as? [String: Any])?["data"] as? String }
    }
}

/// A private mount namespace whose system zone is `zone` (/etc/localtime is bound to that zone's
/// file there; it resolves to Etc/UTC's file on this machine, so in the namespace Etc/UTC reads
/// as `zone`) with its own /run, held open by a sleeping process. A real cron daemon started in it
/// (`startCron`) never meets another cron's pid file and runs jobs in `zone`; notif computes
/// cron lines from the system zone, so commands that write them run in it too (`run(as:)`).
/// Real clocks, as users run the release binary.
///
/// The namespace has its own crontab spool too (read it with `crontab(of:)`): every cron daemon
/// runs every crontab of its spool, so with the shared one another test's cron (a faketime one
/// starting at 08:59:30, say) ran these users' `@reboot` lines a second time, and this cron ran
/// theirs at Kolkata's times. cron notices a new crontab by the spool's modification time in
/// whole seconds, so the fresh spool starts out dated 1970 (a crontab written in the second it
/// was made would go unseen).
///
/// `swappable`: /etc is an overlay there instead, and /etc/localtime a link to the zone's file,
/// which `swapZone(to:)` replaces by rename as `timedatectl set-timezone` does (so cron, a
/// systemd manager and `notif daemon` see the change as on a real machine); cron then runs
/// without `TZ`, following /etc/localtime.
final class ZonedSystem {
    private(set) var zone: String
    let swappable: Bool
    private let holder: Process
    private var crons: [Process] = []

    private let spool = "/var/spool/cron/crontabs"

    init(zone: String, swappable: Bool = false) throws {
        self.zone = zone
        self.swappable = swappable
        holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let localtime = swappable
            ? "mkdir -p /run/notif-etc/u /run/notif-etc/w && mount -t overlay overlay -o lowerdir=/etc,upperdir=/run/notif-etc/u,workdir=/run/notif-etc/w /etc && "
                + "ln -sfn /usr/share/zoneinfo/\(zone) /etc/localtime && "
            : "mount --bind /usr/share/zoneinfo/\(zone) /etc/localtime && "
        holder.arguments = ["--mount", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs tmpfs /run && " + localtime
                                + "mount -t tmpfs tmpfs \(spool) && chown root:crontab \(spool) && chmod 1730 \(spool) && touch -d @0 \(spool) && "
                                + "exec sleep 3600"]
        holder.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        let pid = holder.processIdentifier
        guard waitUntil(10, { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("sleep") == true }) else {
            throw E2EFailure("the namespace for \(zone) was not set up")
        }
    }

    /// The words that run a program inside the namespace.
    var enter: [String] { ["/usr/bin/nsenter", "-t", String(holder.processIdentifier), "-m", "--"] }

    /// Points /etc/localtime at `zone`'s file, by a link renamed over it (`swappable` only).
    /// The shell command that makes `zone` the local zone: a new link renamed over /etc/localtime, as timedatectl does.
    static func swapCommand(to zone: String) -> String {
        "ln -sfn /usr/share/zoneinfo/\(zone) /etc/localtime.new && mv -T /etc/localtime.new /etc/localtime"
    }

    func swapZone(to zone: String) throws {
        precondition(swappable, "the namespace's /etc/localtime is a bind mount")
        let result = try EndToEndTests.run(enter + ["sh", "-c", Self.swapCommand(to: zone)],
                                           environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard result.status == 0 else { throw E2EFailure("swapping the zone to \(zone): \(result)") }
        self.zone = zone
    }

    /// `argv` as `user` inside the namespace (exactly `user.environment(extra)`), for a background process.
    func argv(as user: TestUser, _ argv: [String], _ extra: [String: String] = [:]) -> [String] {
        let env = user.environment(extra)
        return enter + ["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + argv
    }

    /// `user`'s crontab exactly as the namespace's cron holds it (without crontab's 3-line header).
    func crontabBytes(of user: TestUser) throws -> [UInt8] {
        let result = try SpawnProcessRunner().run(enter + ["sh", "-c", "test -e \(spool)/\(user.name) || exit 0; tail -n +4 \(spool)/\(user.name)"],
                                                  timeout: 30)
        guard result.succeeded else { throw E2EFailure("reading the spool in the \(zone) namespace: \(result.failureSummary)") }
        return result.stdout
    }

    /// Starts `cron -f` in the namespace, with `TZ` set to the zone as well. With `bootJobs` it
    /// behaves as at system startup and runs every `@reboot` job; otherwise the marker cron
    /// leaves at startup (/run/crond.reboot) is put there first.
    func startCron(bootJobs: Bool) throws {
        let cron = Process()
        cron.executableURL = URL(fileURLWithPath: enter[0])
        cron.arguments = Array(enter.dropFirst()) + ["sh", "-c", (bootJobs ? "" : "touch /run/crond.reboot && ") + "exec /usr/sbin/cron -f -L 15"]
        cron.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"].merging(swappable ? [:] : ["TZ": zone]) { a, _ in a }
        cron.standardOutput = FileHandle.nullDevice
        cron.standardError = FileHandle.nullDevice
        try cron.run()
        crons.append(cron)
        let pid = cron.processIdentifier
        guard waitUntil(10, { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("cron") == true }) else {
            throw E2EFailure("cron did not start in the \(zone) namespace")
        }
    }

    var cronRunning: Bool { !crons.isEmpty && crons.allSatisfy(\.isRunning) }

    /// Runs `argv` as `user` (exactly `user.environment(extra)`) inside the namespace.
    func run(as user: TestUser, _ argv: [String], _ extra: [String: String] = [:]) throws -> RunResult {
        try EndToEndTests.run(self.argv(as: user, argv, extra), environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// `user`'s crontab in the namespace's spool ("" when there is none).
    func crontab(of user: TestUser) throws -> String {
        let result = try EndToEndTests.run(enter + ["/usr/bin/crontab", "-l", "-u", user.name], environment: ["PATH": "/usr/bin:/bin"])
        if result.status == 0 { return result.stdout }
        guard result.stderr.contains("no crontab for") else { throw E2EFailure("crontab -l -u \(user.name) in the \(zone) namespace: \(result)") }
        return ""
    }

    deinit {
        for process in crons + [holder] {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
