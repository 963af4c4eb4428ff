import Foundation
import Testing
import TestSupport

/// One user's entries moved between the real schedulers: their real crontab, the real
/// `systemctl --user` (no user manager here: it enables on the files) and the built-in schedule.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct RealSchedulerSwitchTests {
    @Test(.hangGuard)
    func cronEmbeddedSystemdCronLeavesExactlyOneEntryOnTheChosenOne() throws {
        let user = try TestUser.make("notif-tswitch")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let mine = "# mine: 100%\n17 3 * * * /bin/true\n"
        try user.setCrontab(mine)
        _ = try user.run([binary, "permission", "grant"], ["NOTIF_SCHEDULER": "cron"])
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], ["NOTIF_SCHEDULER": "cron"]).status == 0)
        #expect(try ReminderPlaces.of(user).holders == ["cron"])
        let quoted = "'\(sandbox.path)/my bin 100\\%/notif'"
        #expect(try user.crontab().contains("@reboot [ -x \(quoted) ] && exec \(user.cronPins()) \(quoted) deliver --quiet --catch-up tips-and-updates"))

        for scheduler in ["embedded", "systemd", "cron", "systemd", "embedded", "cron"] {
            let env = ["NOTIF_SCHEDULER": scheduler]
            let apply = try user.run([binary, "apply"], env)
            #expect(apply.status == 0, "\(scheduler): \(apply)")
            let now = try ReminderPlaces.of(user)
            #expect(now.holders == [scheduler], "\(scheduler): \(now) \(apply)")
            if scheduler == "systemd" { #expect(now.systemd && now.enabled) }
            #expect(user.read(user.stateDir + "/scheduler") == scheduler + "\nchoice auto\n")
            let status = try user.run([binary, "status"], env)
            #expect(status.stdout.contains("In sync:            yes"), "\(status)")
            if scheduler == "systemd" {
                // This machine was not started with systemd (PID 1 is not systemd): nothing fires the timer, and status says so.
                #expect(status.stdout.contains("Scheduler:          systemd (forced; no systemd user manager, and this machine was not started with systemd: its timers cannot fire)\n"), "\(status)")
                // The warning says the same, not that a login would start the timer (none would here).
                #expect(status.stderr.contains("systemd's timers cannot fire on this machine: no systemd user manager runs and this machine was not started with systemd")
                        && !status.stderr.contains("next login"), "\(status)")
            }
            if scheduler != "cron" { #expect(try user.crontab() == mine) }
        }
        #expect(try user.run([binary, "set", "tips-and-updates", "off"], ["NOTIF_SCHEDULER": "cron"]).status == 0)
        #expect(try ReminderPlaces.of(user).holders.isEmpty)
        #expect(try user.crontab() == mine)
    }

    @Test(.hangGuard)
    func theTimerNotifWritesPassesVerifyAndANoOpApplyTouchesNothing() throws {
        let user = try TestUser.make("notif-tsystemd")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "systemd"]
        _ = try user.run([binary, "permission", "grant"], env)
        let set = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 0 && set.stdout.contains("scheduled daily at 09:00 with systemd"), "\(set)")
        let units = user.home + "/.config/systemd/user"
        let files = [units + "/" + user.timerName, units + "/" + user.serviceName]
        let service = try #require(user.read(files[1]))
        #expect(service.contains("\nExecStart=\"\(sandbox.path)/my bin 100%%/notif\" deliver --quiet --catch-up tips-and-updates\n"), "\(service)")
        #expect(service.contains("\nConditionFileIsExecutable=\(sandbox.path)/my bin 100%%/notif\n"), "\(service)")
        let runtime = sandbox.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verify = try run(["systemd-analyze", "--user", "verify"] + files,
                             environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "HOME": sandbox.path + "/home"])
        #expect(verify.status == 0 && SystemdVerifyNoise.strip(verify.stderr).isEmpty, "\(verify)")

        func snapshot() -> [String: String] {
            var result: [String: String] = [:]
            for path in files + [units + "/timers.target.wants/" + user.timerName, user.stateDir + "/scheduler"] {
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                result[path] = "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
            return result
        }
        let before = snapshot()
        #expect(before.count == 4)
        let apply = try user.run([binary, "apply"], env)
        #expect(apply.status == 0 && apply.stdout.contains("(unchanged)"), "\(apply)")
        #expect(snapshot() == before)
        #expect(try user.run([binary, "set", "push-notifications", "off"], env).status == 0)
        for path in files { #expect(!FileManager.default.fileExists(atPath: path)) }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: units + "/timers.target.wants/" + user.timerName)) == nil)
    }
}
