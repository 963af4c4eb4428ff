import Foundation
import Testing
import TestSupport

/// A scheduled entry never names a program that is gone. The binary is removed while notif
/// runs: /proc/self/exe then reads "PATH (deleted)", and an entry naming that never runs.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct DeletedBinaryTests {
    /// A copy of the built binary in a directory the user owns (so the user may remove it).
    func ownedCopy(_ user: TestUser, in sandbox: Sandbox) throws -> String {
        let binary = try NotifBinary.publicCopy(in: sandbox, directory: "prog dir")
        let chowned = try run(["chown", "-R", "\(user.name):", (binary as NSString).deletingLastPathComponent], environment: ["PATH": "/usr/bin:/bin"])
        guard chowned.status == 0 else { throw E2EFailure("chown: \(chowned)") }
        return binary
    }

    /// `notif ARGS` run from `binary` after its file was removed (`replacement`: then put back
    /// as another file, as `make install` does): the shell keeps the file open, removes it, and
    /// runs the open file, so the process starts as it would from a binary deleted under it.
    func runDeleted(_ user: TestUser, _ binary: String, replacement: String? = nil, _ args: [String]) throws -> RunResult {
        var script = "exec 3< \"$0\" && rm -f \"$0\""
        if replacement != nil { script += " && cp \"$1\" \"$0\" && chmod 755 \"$0\"" }
        script += " && shift && exec /proc/self/fd/3 \"$@\""
        return try user.run(["/bin/sh", "-c", script, binary, replacement ?? "-"] + args, ["TZ": "Europe/Berlin"])
    }

    @Test func setFromADeletedBinaryFailsAndWritesNoEntry() throws {
        let user = try TestUser.make("notif-tdelbin")
        let sandbox = Sandbox()
        let binary = try ownedCopy(user, in: sandbox)
        let mine = "# mine\n"
        try user.setCrontab(mine)
        #expect(try user.run([binary, "--scheduler", "cron", "permission", "grant"]).status == 0)
        let set = try runDeleted(user, binary, ["--scheduler", "cron", "set", "tips-and-updates", "on"])
        #expect(!FileManager.default.fileExists(atPath: binary), "the binary was removed before notif ran")
        #expect(set.status == 1, "\(set)")
        #expect(set.stdout.contains("NOT scheduled: notif's own program \(binary) was removed or replaced"), "\(set)")
        #expect(set.stderr.contains("the setting was saved"), "\(set)")
        #expect(try user.crontab() == mine, "nothing was written to the crontab")
        #expect(user.read(user.settingsPath)?.contains("\"tipsAndUpdates\": true") == true, "the setting stays saved")
    }

    @Test func aBinaryReplacedUnderItIsRunFromItsPath() throws {
        let user = try TestUser.make("notif-treplbin")
        let sandbox = Sandbox()
        let binary = try ownedCopy(user, in: sandbox)
        let fresh = try NotifBinary.publicCopy(in: sandbox, directory: "fresh")
        #expect(try user.run([binary, "--scheduler", "cron", "permission", "grant"]).status == 0)
        let set = try runDeleted(user, binary, replacement: fresh, ["--scheduler", "cron", "set", "tips-and-updates", "on"])
        #expect(set.status == 0, "\(set)")
        let crontab = try user.crontab()
        // runDeleted runs with TZ=Europe/Berlin, which goes with the entry (the system zone is UTC here).
        #expect(crontab.contains("[ -x '\(binary)' ] && exec \(user.cronPins(tz: "Europe/Berlin")) '\(binary)' deliver --quiet tips-and-updates"), "\(crontab)")
        #expect(!crontab.contains("(deleted)"), "\(crontab)")
    }

    /// A running `notif daemon` whose program is removed (`apt-get remove`) delivers nothing
    /// more: started from a removed file with the reminder due, it delivers nothing and stops,
    /// saying why; started from its file, it stops at the next wake after the file is removed.
    @Test(.hangGuard)
    func aDaemonWhoseProgramIsGoneDeliversNothingAndStops() throws {
        let user = try TestUser.make("notif-tr14-deldmn")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try ownedCopy(user, in: sandbox)
        let other = try NotifBinary.publicCopy(in: sandbox, directory: "other")
        // 09:05 where the user is: the reminder is due the moment a daemon looks.
        let env = user.environment(["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5)])
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        let script = "exec 3< \"$0\" && rm -f \"$0\" && exec /proc/self/fd/3 daemon"
        let removedFirst = try DaemonProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + assignments + ["/bin/sh", "-c", script, binary],
                                             environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(removedFirst.waitForExit(60) == 0, "\(removedFirst.output)")
        #expect(removedFirst.output.contains("notif daemon: notif's own program \(binary) was removed or replaced: this daemon delivers nothing more and stops"),
                "\(removedFirst.output)")
        #expect(user.read(user.stateDir + "/deliveries.jsonl") == nil, "it delivered: \(user.read(user.stateDir + "/deliveries.jsonl") ?? "")")

        // Removed while it runs, between two wakes: the next wake (a change to the settings) ends
        // it without an attempt. (Its first wake, program still there, is today's attempt.)
        let later = env.merging(["TZ": ZoneShift.whereItIs(12, 0)]) { $1 }
        let laterAssignments = later.keys.sorted().map { "\($0)=\(later[$0]!)" }
        // cp in a process of its own: a file this process wrote could be held open by another test's fork (ETXTBSY).
        #expect(try run(["cp", other, binary], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
        _ = try run(["chown", user.name, binary], environment: ["PATH": "/usr/bin:/bin"])
        let running = try DaemonProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + laterAssignments + [binary, "daemon"],
                                        environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(running.waitUntilRunning(), "\(running.output)")
        #expect(waitUntil(30) { running.output.contains("(scheduled, start)") }, "\(running.output)")
        let before = user.read(user.stateDir + "/deliveries.jsonl")
        try FileManager.default.removeItem(atPath: binary)
        #expect(try user.run([other, "set", "queue-alerts", "off"], later).status == 0)
        #expect(running.waitForExit(60) == 0, "\(running.output)")
        #expect(running.output.contains("was removed or replaced: this daemon delivers nothing more and stops"), "\(running.output)")
        #expect(user.read(user.stateDir + "/deliveries.jsonl") == before, "an attempt after the program was removed")
    }

    /// The page is open, the binary is removed, then Tips & Updates is turned on and allowed:
    /// the page shows the failure and no reminder, and the crontab gets no entry.
    @Test func thePageShowsTheFailureWhenItsBinaryWasRemoved() throws {
        let user = try TestUser.make("notif-tdelpage")
        let sandbox = Sandbox()
        let binary = try ownedCopy(user, in: sandbox)
        let mine = "# mine\n"
        try user.setCrontab(mine)
        let env = user.environment(["TERM": "tmux-256color", "NOTIF_SCHEDULER": "cron", "TZ": "Europe/Berlin"])
        let pane = try TmuxPane(notifCommand(env: env, binary: binary, asUser: user.name), width: 100, height: 30)
        try pane.waitFor("Welcome to notif")
        try FileManager.default.removeItem(atPath: binary)
        try pane.send("Enter")
        try pane.waitFor("Turn on Tips & Updates now?")
        try pane.send("Enter")
        try pane.waitFor("Allow notifications?")
        try pane.send("Enter")
        try pane.waitFor("Tips & Updates is on")
        try pane.send("Enter")
        let screen = try pane.waitFor("was removed or")
        let next = screen.split(separator: "\n").first { $0.contains("Next reminder:") } ?? ""
        #expect(next.contains("none"), "\(screen)")
        let settings = user.read(user.settingsPath) ?? ""
        #expect(settings.contains("\"tipsAndUpdates\": true") && settings.contains("\"permission\": \"granted\""), "\(settings)")
        #expect(try user.crontab() == mine, "nothing was written to the crontab")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }
}
