import Foundation
import TestSupport

/// A live systemd user manager for the reminder-action tests (a second, simpler harness beside
/// LiveUserManager; see LiveSystemdTests for that one). A live systemd user manager for a throwaway user, as RECIPES.md shows: in a private mount
/// namespace (its own /run/systemd, so systemd believes it was booted with it) and a cgroup of
/// its own, with the user bus it starts at /run/user/UID/bus. Everything goes when released.
final class ActionsUserManager {
    let user: TestUser
    let runtimeDirectory: String
    private let group: ProcessGroup
    private let cgroup: String
    private(set) var managerPID: pid_t = 0

    init(user: TestUser, tz: String = "Europe/Berlin") throws {
        self.user = user
        runtimeDirectory = "/run/user/\(user.uid)"
        cgroup = "notif-e2e-\(UUID().uuidString.prefix(8).lowercased())"
        let root = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        // A run stopped early may have left this uid's runtime directory, with a dead manager's sockets.
        _ = try EndToEndTests.run(["sh", "-c", "rm -rf \"$0\" && mkdir -p \"$0\" && chown \"$1:\" \"$0\" && chmod 700 \"$0\"", runtimeDirectory, user.name],
                                  environment: root)
        let script = """
            mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system || exit 1
            for h in systemd unified; do mkdir -p /sys/fs/cgroup/$h/\(cgroup) && chown -R \(user.name): /sys/fs/cgroup/$h/\(cgroup) \
              && echo $$ > /sys/fs/cgroup/$h/\(cgroup)/cgroup.procs; done
            exec runuser -u \(user.name) -- env -i HOME=\(user.home) USER=\(user.name) LOGNAME=\(user.name) \
              XDG_RUNTIME_DIR=\(runtimeDirectory) PATH=/usr/local/bin:/usr/bin:/bin TZ=\(tz) /lib/systemd/systemd --user
            """
        group = try ProcessGroup(["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script])
        let dir = runtimeDirectory
        guard waitUntil(20, { FileManager.default.fileExists(atPath: dir + "/systemd/private") && FileManager.default.fileExists(atPath: dir + "/bus") }),
              let pid = try? EndToEndTests.run(["pgrep", "-u", user.name, "-x", "systemd"], environment: root).stdout.split(separator: "\n").first.flatMap({ pid_t($0) })
        else { throw E2EFailure("no systemd user manager for \(user.name)") }
        managerPID = pid
    }

    var busAddress: String { "unix:path=\(runtimeDirectory)/bus" }

    /// The user's environment as a desktop process of theirs has it.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": busAddress].merging(extra) { $1 }
    }

    /// Runs `argv` as the user inside the manager's mount namespace, where it sees the manager running.
    func run(_ argv: [String], _ extra: [String: String] = [:]) throws -> RunResult {
        let env = user.environment(environment(extra))
        return try EndToEndTests.run(["nsenter", "-t", String(managerPID), "-m", "/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"]
                                     + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + argv,
                                     environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    deinit {
        let root = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        if managerPID > 0 { kill(managerPID, SIGTERM) }
        _ = waitUntil(10) { managerPID <= 0 || kill(managerPID, 0) != 0 }
        _ = try? EndToEndTests.run(["pkill", "-KILL", "-u", user.name], environment: root)
        group.stop()
        for hierarchy in ["systemd", "unified"] {
            _ = try? EndToEndTests.run(["sh", "-c", "find \"$0\" -depth -type d -exec rmdir {} \\; 2>/dev/null; true", "/sys/fs/cgroup/\(hierarchy)/\(cgroup)"], environment: root)
        }
        _ = try? EndToEndTests.run(["rm", "-rf", runtimeDirectory], environment: root)
    }
}
