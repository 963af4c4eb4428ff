import Foundation
import TestSupport

/// A live systemd user manager (`systemd --user`) for a throwaway user, as a desktop login
/// starts one, on a machine whose PID 1 is not systemd. It runs in a private mount namespace
/// where /run/systemd/system exists (systemd refuses to start otherwise; nothing outside sees
/// it), in a cgroup of its own the user may write, with the runtime directory /run/user/UID,
/// where dbus-user-session's socket unit serves the session bus (`bus`) as on a desktop.
/// With a display, D-Bus activation starts dunst through the manager, as a desktop would.
/// `swappable`: the manager runs without `TZ`, in the system zone of its namespace, where /etc is
/// an overlay and /etc/localtime a link to `zone`'s file that `JumpSetup.startSwap` replaces by rename,
/// as `timedatectl set-timezone` does.
///
/// Commands run as the user inside the manager's namespace (`nsenter -t PID -m runuser -u USER`),
/// exactly as a process of the desktop session would. Released, it stops the manager, kills
/// whatever is left in its cgroup, removes the cgroup and the runtime directory, even after a
/// failed test.
final class LiveUserManager {
    let user: TestUser
    /// The manager's time zone (`TZ`), also given to the commands it runs by default; with
    /// `swappable`, the system zone of its namespace instead.
    let zone: String
    let swappable: Bool
    let display: String?
    private let gid: String
    private let cgroup = "notif-live-" + UUID().uuidString.prefix(8).lowercased()
    private let log: String
    private var process: BackgroundProcess?

    /// With `swappable`, a `TZ` for the manager alone (its own zone, unlike the system's), or nil.
    let managerTZ: String?

    init(user: TestUser, zone: String, display: VirtualDisplay? = nil, swappable: Bool = false, managerTZ: String? = nil) throws {
        self.user = user
        self.zone = zone
        self.swappable = swappable
        self.managerTZ = managerTZ
        self.display = display?.display
        gid = try EndToEndTests.run(["id", "-g", user.name], environment: ["PATH": "/usr/bin:/bin"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        log = "/tmp/\(cgroup).log"
        // A home without user units, timer stamps or session files of an earlier run.
        _ = try EndToEndTests.run(["rm", "-rf", user.home + "/.config/systemd", user.home + "/.local/share/systemd"],
                                  environment: ["PATH": "/usr/bin:/bin"])
        try start()
    }

    deinit {
        stop()
        for hierarchy in Self.hierarchies { removeTree(hierarchy + "/" + cgroup) }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        try? FileManager.default.removeItem(atPath: log)
    }

    var runtimeDirectory: String { "/run/user/\(user.uid)" }
    var busAddress: String { "unix:path=\(runtimeDirectory)/bus" }
    /// The manager's pid (the namespace's first process), while it runs.
    var pid: pid_t? { process.flatMap { $0.isRunning ? $0.pid : nil } }

    /// The cgroup hierarchies a manager needs a directory in: the named systemd one and the
    /// unified one on a hybrid machine, the root of a pure cgroup v2 one.
    static let hierarchies: [String] = {
        let hybrid = ["/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified"].filter { FileManager.default.fileExists(atPath: $0 + "/cgroup.procs") }
        return hybrid.isEmpty ? ["/sys/fs/cgroup"] : hybrid
    }()

    /// Starts the manager and waits until it has finished starting up (a timer `Persistent=true`
    /// fires at start has run by then).
    func start() throws {
        precondition(pid == nil, "the manager already runs")
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        for step in [["mkdir", "-p", runtimeDirectory], ["chown", "\(user.uid):\(gid)", runtimeDirectory], ["chmod", "700", runtimeDirectory]] {
            let result = try EndToEndTests.run(step, environment: env)
            guard result.status == 0 else { throw E2EFailure("\(step.joined(separator: " ")): \(result)") }
        }
        var managerEnv = ["HOME": user.home, "USER": user.name, "LOGNAME": user.name, "XDG_RUNTIME_DIR": runtimeDirectory,
                          "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"]
        if !swappable { managerEnv["TZ"] = zone } else if let managerTZ { managerEnv["TZ"] = managerTZ }
        if let display {
            managerEnv["DISPLAY"] = display
            try activateDunst()
        }
        let assignments = managerEnv.keys.sorted().map { shellQuote("\($0)=\(managerEnv[$0]!)") }.joined(separator: " ")
        let cgroups = Self.hierarchies.map { shellQuote($0 + "/" + cgroup) }.joined(separator: " ")
        let script = """
            set -e
            mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system
            \(swappable ? "mkdir -p /run/systemd/etc/u /run/systemd/etc/w && mount -t overlay overlay -o lowerdir=/etc,upperdir=/run/systemd/etc/u,workdir=/run/systemd/etc/w /etc && ln -sfn \(shellQuote("/usr/share/zoneinfo/" + zone)) /etc/localtime" : "")
            for cg in \(cgroups); do mkdir -p "$cg"; chown -R \(user.uid):\(gid) "$cg"; echo $$ > "$cg/cgroup.procs"; done
            exec setpriv --reuid=\(user.uid) --regid=\(gid) --init-groups env -i \(assignments) /lib/systemd/systemd --user
            """
        let process = try BackgroundProcess(["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                            environment: env, output: log)
        self.process = process
        let files = [runtimeDirectory + "/systemd/private", runtimeDirectory + "/bus"]
        let execed = waitUntil(20) {
            !process.isRunning || (process.command == "systemd" && files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        }
        guard execed, process.isRunning else { throw E2EFailure("systemd --user did not start for \(user.name):\n\(output)") }
        // A manager stopped earlier left its sockets behind: ready is when this one answers.
        var state = RunResult(status: -1, stdout: "", stderr: "")
        _ = try waitUntil(20) {
            state = try systemctl(["is-system-running", "--wait"], timeout: 60)
            return !state.stderr.contains("Failed to connect") || !process.isRunning
        }
        let words = state.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard words == "running" || words == "degraded" else {
            throw E2EFailure("systemd --user for \(user.name) did not finish starting: \(state)\n\(output)")
        }
    }

    /// The user's own D-Bus service file for org.freedesktop.Notifications, naming dunst: it
    /// comes before the system's, where several servers (mako, swaync, xfce4-notifyd…) may each
    /// ship one, and their systemd units claim the same bus name, so activation through the
    /// manager could start another server or none. dbus-daemon starts this one itself.
    private func activateDunst() throws {
        let directory = user.home + "/.local/share/dbus-1/services"
        let file = """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=/usr/bin/dunst -conf /dev/null

            """
        for step in [["mkdir", "-p", directory], ["chown", "-R", "\(user.uid):\(gid)", user.home + "/.local"]] {
            let result = try EndToEndTests.run(step, environment: ["PATH": "/usr/bin:/bin"])
            guard result.status == 0 else { throw E2EFailure("\(step.joined(separator: " ")): \(result)") }
        }
        let path = directory + "/org.freedesktop.Notifications.service"
        try file.write(toFile: path, atomically: false, encoding: .utf8)
        guard let owner = uid_t(user.uid), let group = gid_t(gid), chown(path, owner, group) == 0 else { throw E2EFailure("chown \(path)") }
    }

    /// Stops the manager as a logout does (SIGTERM: it stops its units, the session bus among
    /// them), then kills whatever is left in its cgroup. The runtime directory and the socket
    /// files in it stay, as after a manager that died.
    func stop() {
        if let process, process.isRunning {
            kill(process.pid, SIGTERM)
            if !process.waitForExit(20) {
                kill(process.pid, SIGKILL)
                _ = process.waitForExit(5)
            }
        }
        process = nil
        _ = waitUntil(10) {
            let left = leftovers()
            for pid in left { kill(pid, SIGKILL) }
            return left.isEmpty
        }
    }

    /// Processes still in the manager's cgroups (it started them all).
    private func leftovers() -> [pid_t] {
        Self.hierarchies.flatMap { hierarchy -> [pid_t] in
            let root = hierarchy + "/" + cgroup
            guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
            let files = ["cgroup.procs"] + walker.compactMap { $0 as? String }.filter { $0.hasSuffix("/cgroup.procs") }
            return files.flatMap { file in
                ((try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            }
        }
    }

    /// Removes an empty cgroup directory tree, deepest first (cgroup files cannot be unlinked).
    private func removeTree(_ path: String) {
        let subdirectories = ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).map { path + "/" + $0 }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        for dir in subdirectories.sorted(by: { $0.count > $1.count }) { rmdir(dir) }
        rmdir(path)
    }

    /// What the manager printed (it logs to stderr when there is no journal).
    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The environment a program of the user's desktop session has: the manager's runtime
    /// directory and session bus, its zone, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ["XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": busAddress,
                   "PATH": "/usr/local/bin:/usr/bin:/bin"]
        if !swappable { env["TZ"] = zone }
        if let display { env["DISPLAY"] = display }
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs `argv` as the user inside the manager's mount namespace, with `environment(extra)`.
    func run(_ argv: [String], _ extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> RunResult {
        guard let pid else { throw E2EFailure("the user manager of \(user.name) is not running:\n\(output)") }
        let env = user.environment(environment(extra))
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        return try EndToEndTests.run(["nsenter", "-t", "\(pid)", "-m", "runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + assignments + argv,
                                     environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], timeout: timeout)
    }

    /// `nsenter` into the manager's mount namespace, for a command run there as root (a zone
    /// swap, `JumpSetup.startSwap`: only `swappable` has a /etc/localtime of its own to swap).
    func enter() throws -> [String] {
        precondition(swappable, "the manager runs with TZ set")
        guard let pid else { throw E2EFailure("the user manager of \(user.name) is not running:\n\(output)") }
        return ["/usr/bin/nsenter", "-t", "\(pid)", "-m", "--"]
    }

    /// `systemctl --user ARGS` as the user, asking this manager.
    func systemctl(_ arguments: [String], timeout: TimeInterval = 60) throws -> RunResult {
        try run(["systemctl", "--user"] + arguments, timeout: timeout)
    }

    /// The timers the manager has loaded, with their next elapse (`list-timers --all`).
    func timers() throws -> [String: Date?] {
        let result = try systemctl(["list-timers", "--all", "--output=json"])
        guard result.status == 0, let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw E2EFailure("systemctl --user list-timers: \(result)")
        }
        var timers: [String: Date?] = [:]
        for timer in list {
            guard let unit = timer["unit"] as? String else { continue }
            let next = (timer["next"] as? NSNumber)?.doubleValue ?? 0
            timers[unit] = next > 0 ? Date(timeIntervalSince1970: next / 1_000_000) : nil
        }
        return timers
    }

    /// Notifications the session's dunst has shown (it is started on the bus when first asked).
    func shown() throws -> [(app: String, summary: String)] {
        try dunstShown(by: user, ["DBUS_SESSION_BUS_ADDRESS": busAddress])
    }
}
