import Foundation

/// A real cron daemon with the real clock, in a time zone of the test's choice (`TZ`; cron
/// fires `0 9 * * *` at 09:00 in its own zone), in a private mount namespace: its own /run (pid
/// file, the `@reboot` marker already there) and its own crontab spool, so it runs only the
/// crontabs written inside it and no other cron daemon runs them. Commands that must see that
/// spool (`notif set`, `crontab -l`) run inside the namespace (`run(as:)`).
///
/// cron notices a new crontab by the spool directory's modification time, in whole seconds: a
/// crontab written in the same second the spool was made would go unseen, so the fresh spool
/// starts out dated 1970.
final class ZoneCron {
    private let process: BackgroundProcess

    init(zone: String) throws {
        let spool = "/var/spool/cron/crontabs"
        let script = """
            set -e
            mount -t tmpfs tmpfs /run && touch /run/crond.reboot
            mount -t tmpfs tmpfs \(spool) && chown root:crontab \(spool) && chmod 1730 \(spool)
            touch -d @0 \(spool)
            exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=\(shellQuote(zone)) /usr/sbin/cron -f -L 15
            """
        let process = try BackgroundProcess(["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], output: "/dev/null")
        self.process = process
        // Ready once the shell became cron (its spool is mounted by then).
        guard waitUntil(10, { !process.isRunning || process.command == "cron" }), process.isRunning else {
            throw E2EFailure("cron did not start in its namespace")
        }
    }

    /// Kills the jobs it started, then the daemon (released with it).
    deinit {
        for job in Self.descendants(of: process.pid) { kill(job, SIGKILL) }
    }

    var isRunning: Bool { process.isRunning }

    /// Runs `argv` as `user` inside the daemon's namespace (where its spool is).
    func run(as user: TestUser, _ argv: [String], _ extra: [String: String] = [:]) throws -> RunResult {
        let env = user.environment(extra)
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        return try EndToEndTests.run(["nsenter", "-t", "\(process.pid)", "-m", "runuser", "-u", user.name, "--", "/usr/bin/env", "-i"]
                                     + assignments + argv, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// `user`'s crontab in this daemon's spool ("" when there is none).
    func crontab(of user: TestUser) throws -> String {
        let result = try run(as: user, ["crontab", "-l"])
        return result.status == 0 ? result.stdout : ""
    }

    /// Every process below `pid` (the jobs cron started and what they run).
    private static func descendants(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let children = text.split(separator: " ").compactMap { pid_t($0) }
        return children + children.flatMap { descendants(of: $0) }
    }
}
