import Foundation
import Testing
import TestSupport

/// `status` text rows.
func row(_ label: String, in output: String) -> String {
    output.split(separator: "\n").first { $0.hasPrefix(label + ":") }.map { String($0.dropFirst(20)) } ?? "(no \(label) row)"
}

/// Schedulers that fail: `crontab` missing, failing or killed half way, `systemctl` failing or
/// missing. Each time the preference is kept, the user's crontab is intact, `status` says out of
/// sync and why, and an `apply` once the fault is gone converges.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct ReliabilityCronFaultTests {
    /// Long enough (about 200 KB) that a crontab killed half way leaves notif writing into a closed pipe.
    static let mine = "# mine, 100% mine\nMAILTO=\"\"\n17 3 * * * /bin/true # keep\n"
        + (1...2000).map { "# filler \($0): " + String(repeating: "x", count: 90) + "\n" }.joined()

    @Test(.hangGuard)
    func crontabFailingHalfWayNeverCostsTheUsersLines() async throws {
        let user = try TestUser.make("notif-trfault")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let fakes = try FakeTools(in: sandbox)
        let modeFile = sandbox.path + "/crontab-fault"
        func fault(_ mode: String) throws {
            try Data(mode.utf8).write(to: URL(fileURLWithPath: modeFile))
            chmod(modeFile, 0o644)
        }
        // A crontab in front of the real one that fails the way the mode file says, else passes through.
        try fakes.add("crontab", """
            mode=$(cat '\(modeFile)' 2>/dev/null)
            case "$1" in
              -) case "$mode" in
                   install) cat > /dev/null; echo "crontab: write error: No space left on device" >&2; exit 1 ;;
                   kill) head -c 10 > /dev/null; kill -9 $$ ;;
                   hang) cat > /dev/null; exec sleep 3600 ;;
                 esac ;;
              -l) if [ "$mode" = list ]; then echo "crontab: cannot read crontab: Input/output error" >&2; exit 1; fi ;;
            esac
            exec /usr/bin/crontab "$@"
            """)
        let faulty = ["NOTIF_SCHEDULER": "cron", "PATH": fakes.directory + ":/usr/bin:/bin"]
        let healthy = ["NOTIF_SCHEDULER": "cron"]
        let missing = ["NOTIF_SCHEDULER": "cron", "PATH": "/nonexistent"]
        try user.setCrontab(Self.mine)
        try fault("")
        #expect(try user.run([binary, "permission", "grant"], faulty).status == 0)

        func status(_ env: [String: String]) throws -> RunResult {
            let result = try user.run([binary, "status"], env)
            #expect(result.status == 0, "\(result)")
            return result
        }
        func settingsSay(_ text: String) -> Bool { user.read(user.settingsPath)?.contains(text) == true }
        var faults = 0

        // Each way of failing to install: the change is saved, nothing of the user's is lost.
        var modes: [(mode: String, env: [String: String], says: String)] = [
            ("install", faulty, "`crontab -` failed (exit status 1: crontab: write error: No space left on device); your crontab was not changed"),
            ("kill", faulty, "`crontab -` failed (ended by signal 9); your crontab was not changed"),
            ("", missing, "crontab is not installed"),
        ]
        if Soak.isOn { modes.append(("hang", faulty, "`crontab -` failed (did not finish in time and was stopped)")) }
        // A soak goes round several times: state left by one failure must not spoil the next.
        let rounds = Soak.count(short: 1, long: 4)
        for (mode, env, says) in (0..<rounds).flatMap({ _ in modes }) {
            try fault(mode)
            let set = try await runAsync(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"]
                                             + user.environment(env).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                             + [binary, "set", "tips-and-updates", "on"],
                                         environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
            #expect(set.status == 1, "\(mode): \(set)")
            #expect(set.stdout.contains("NOT scheduled: " + says), "\(mode): \(set)")
            #expect(set.stderr.contains("the setting was saved, but the scheduler does not match it yet"), "\(mode): \(set)")
            #expect(settingsSay("\"tipsAndUpdates\": true"), "\(mode): the preference is kept")
            #expect(try user.crontab() == Self.mine, "\(mode): the user's crontab is intact")
            // status with the fault still there when it can read (crontab -l works), else without.
            let out = try status(env == missing ? healthy : env).stdout
            #expect(row("In sync", in: out) == "no (tips-and-updates is planned but not installed)", "\(mode): \(out)")
            #expect(row("Next reminder", in: out).hasPrefix("none — not scheduled"), "\(mode): \(out)")
            try fault("")
            let apply = try user.run([binary, "apply"], healthy)
            #expect(apply.status == 0 && apply.stdout.contains("scheduled daily at 09:00 with cron"), "\(mode): \(apply)")
            let crontab = try user.crontab()
            #expect(crontab.hasPrefix(Self.mine) && crontab.components(separatedBy: "deliver --quiet tips-and-updates").count == 2, "\(mode): \(crontab)")
            #expect(row("In sync", in: try status(healthy).stdout) == "yes")
            // Back to the user's lines only, for the next round.
            #expect(try user.run([binary, "set", "tips-and-updates", "off"], healthy).status == 0)
            #expect(try user.crontab() == Self.mine)
            faults += 1
        }

        // Failing to read: the entry stays where it was, status cannot call that in sync.
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], healthy).status == 0)
        let withEntry = try user.crontab()
        try fault("list")
        let off = try user.run([binary, "set", "tips-and-updates", "off"], faulty)
        #expect(off.status == 1 && off.stdout.contains("`crontab -l` failed (exit status 1: crontab: cannot read crontab: Input/output error)"), "\(off)")
        #expect(settingsSay("\"tipsAndUpdates\": false"))
        #expect(try user.crontab() == withEntry, "nothing was changed")
        let unreadable = try status(faulty)
        #expect(row("Installed", in: unreadable.stdout) == "unknown", "\(unreadable)")
        #expect(row("In sync", in: unreadable.stdout) == "no (the cron entries could not be read)", "\(unreadable)")
        #expect(unreadable.stderr.contains("cannot read the cron entries: `crontab -l` failed"), "\(unreadable)")
        try fault("")
        #expect(try user.run([binary, "apply"], healthy).status == 0)
        #expect(try user.crontab() == Self.mine)
        #expect(row("In sync", in: try status(healthy).stdout) == "yes")
        faults += 1
        print("[reliability] cron faults: \(faults) kinds of failure, each kept the preference and the user's crontab and converged")
    }
}

/// systemctl failing or missing, in a sandbox (no user manager here: enable works on files).
@Suite struct ReliabilitySystemctlFaultTests {
    @Test func systemctlFailingOrMissingThenApplyConverges() throws {
        let sandbox = Sandbox()
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let faulty = ["NOTIF_SCHEDULER": "systemd", "PATH": fakes.path]
        let missing = ["NOTIF_SCHEDULER": "systemd", "PATH": "/nonexistent"]
        let healthy = ["NOTIF_SCHEDULER": "systemd"]
        let units = sandbox.path + "/home/.config/systemd/user"
        let timerName = "notif-tips-and-updates-\(sandbox.tag).timer"
        let link = units + "/timers.target.wants/" + timerName
        #expect(try sandbox.notif(["permission", "grant"], faulty).status == 0)

        let serviceName = timerName.replacingOccurrences(of: ".timer", with: ".service")
        for (env, says) in [(faulty, "`systemctl --user enable \(timerName) \(serviceName)` failed (exit status 1: Failed to connect to bus: No medium found)"),
                            (missing, "systemctl is not installed")] {
            let set = try sandbox.notif(["set", "tips-and-updates", "on"], env)
            #expect(set.status == 1 && set.stdout.contains("NOT scheduled: " + says), "\(set)")
            #expect(set.stderr.contains("the setting was saved"), "\(set)")
            #expect(sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": true") == true)
            #expect(!isSymlink(link))
            let status = try sandbox.notif(["status"], healthy)
            #expect(row("In sync", in: status.stdout) == "no (tips-and-updates is installed but its timer is not enabled)", "\(status)")
            let apply = try sandbox.notif(["apply"], healthy)
            #expect(apply.status == 0, "\(apply)")
            #expect(isSymlink(link))
            #expect(row("In sync", in: try sandbox.notif(["status"], healthy).stdout) == "yes")

            // Turning it off with systemctl failing removes nothing (the timer stays consistent).
            let off = try sandbox.notif(["set", "tips-and-updates", "off"], faulty)
            #expect(off.status == 1 && off.stdout.contains("nothing was removed"), "\(off)")
            #expect(sandbox.read(sandbox.settingsPath)?.contains("\"tipsAndUpdates\": false") == true)
            #expect(isSymlink(link) && FileManager.default.fileExists(atPath: units + "/" + timerName))
            let stale = try sandbox.notif(["status"], healthy)
            #expect(row("In sync", in: stale.stdout) == "no (tips-and-updates is installed but not planned)", "\(stale)")
            #expect(try sandbox.notif(["apply"], healthy).status == 0)
            #expect(!isSymlink(link) && !FileManager.default.fileExists(atPath: units + "/" + timerName))
            #expect(row("In sync", in: try sandbox.notif(["status"], healthy).stdout) == "yes")
        }
    }
}

/// The notification service absent or hanging: the delivery gives up within its time limit,
/// is recorded as failed, and the next one, with the service back, is shown.
@Suite struct ReliabilityNotifyFaultTests {
    /// No session bus at all (and `PATH=/nonexistent`): the run records `waiting` and its waiter
    /// waits; further runs do nothing. The bus socket appears, with a name owner that never
    /// answers: every try is bounded (5 s) and nothing it started is left. The owner goes, a real
    /// server takes the name: the waiter shows the reminder at once, recorded late, and status
    /// says so.
    @Test(.hangGuard)
    func absentOrHangingNotificationServiceThenDelivered() async throws {
        let sandbox = Sandbox()
        let socket = sandbox.path + "/bus"
        // A zone where it is 09:01 now: the reminder is due.
        let base = ["NOTIF_SCHEDULER": "embedded", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)", "TZ": ZoneShift.whereItIs(9, 1),
                    "PATH": "/nonexistent"]
        #expect(try sandbox.notif(["permission", "grant"], base).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], base).status == 0)
        try sandbox.entriesFromYesterday()
        // The reminder's records (`notif test` below records its own).
        func records() -> [[String: Any]] {
            (sandbox.read(sandbox.stateDir + "/deliveries.jsonl") ?? "").split(separator: "\n")
                .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
                .filter { $0["reminder"] as? String == "tips-and-updates" }
        }
        let waiters = { Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home") }

        // Absent: no bus. Waiting, exit 0 (nothing failed); one waiter; a second run does nothing.
        let absent = try sandbox.notif(["deliver", "tips-and-updates"], base)
        #expect(absent.status == 0 && absent.stdout.contains("waiting: not sent yet: this session: its bus unix:path=\(socket) is not used: its socket \(socket) is gone"), "\(absent)")
        #expect(waiters().count == 1, "no waiter waits")
        let second = try sandbox.notif(["deliver", "--catch-up", "tips-and-updates"], base)
        #expect(second.status == 0 && second.stdout.contains("a waiter already waits"), "\(second)")
        #expect(records().map { $0["outcome"] as? String } == ["waiting"], "\(records())")

        // The bus comes, and a process takes the service's name but never answers.
        let hanging = try HangingNotificationService(socket: socket, logs: sandbox.path)
        let (hang, took) = try await sandbox.notifTimed(["test"], base)
        #expect(hang.status == 1 && hang.stderr.contains("this session: the notification service did not answer in time"), "\(hang)")
        #expect(took >= 4.5 && took < 8, "gave up after \(took) s (limit 5 s)")
        #expect(waiters().count == 1, "the waiter left, or a second one came")

        // The hanging owner goes, a real server comes: shown at once, recorded late and why.
        hanging.release()
        let service = try FakeNotificationService(config: [:], bus: "unix:path=\(socket)")
        #expect(waitUntil(20) { service.notifications().count == 1 }, "not shown when the server came: \(records())")
        #expect(waitUntil(10) { records().count == 2 }, "\(records())")
        let shown = records().last ?? [:]
        #expect(shown["outcome"] as? String == "delivered", "\(shown)")
        #expect((shown["detail"] as? String)?.contains(" late: no run until ") == true
                && (shown["detail"] as? String)?.contains("then no notification service until then; accepted by the notification service through this session as notification 1") == true, "\(shown)")
        let status = try sandbox.notif(["status"], base)
        #expect(row("Last delivery", in: status.stdout).contains("delivered: sent 09:0"), "\(status)")
        #expect(!status.stdout.contains("Last attempt:"), "\(status)")
        #expect(try sandbox.notif(["deliver", "tips-and-updates"], base).stdout.contains("already sent today"))
        print("[reliability] notification service: absent, then hanging (a try gave up after \(String(format: "%.1f", took)) s), then shown by the waiter")
    }
}
