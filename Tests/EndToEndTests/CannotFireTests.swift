import Foundation
import Testing

/// An entry that is there but cannot fire gets no time, in `status`, `status --json` and on the
/// page: each says why and what to do. The built-in scheduler with nothing to run it, systemd
/// timers on a machine not started with systemd (this one: PID 1 is not systemd), and an entry
/// whose notif program was removed.
@Suite struct CannotFireTests {
    /// `status`, `status --json` and the page's `Next reminder:` line for the settings in `sandbox`.
    func renderings(_ sandbox: Sandbox, _ extra: [String: String] = [:]) throws -> (text: String, json: String, page: String) {
        let text = try sandbox.notif(["status"], extra)
        let json = try sandbox.notif(["status", "--json"], extra)
        #expect(text.status == 0 && json.status == 0, "\(text) \(json)")
        let pane = try TmuxPane(notifCommand(env: sandbox.environment(extra.merging(["TERM": "tmux-256color"]) { $1 })), width: 160)
        let page = try pane.waitForLine(containing: "Next reminder:") { !$0.contains("checking") }
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        return (text.stdout, json.stdout, page)
    }

    func allowAndTurnOn(_ sandbox: Sandbox, _ extra: [String: String] = [:]) throws {
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        #expect(try sandbox.notif(["permission", "allow"], extra).status == 0)
        #expect(try sandbox.notif(["set", "tips-and-updates", "on"], extra).status == 0)
    }

    @Test func builtInEntriesWithNoDaemonCannotFire() throws {
        let sandbox = Sandbox()
        try allowAndTurnOn(sandbox)
        let (text, json, page) = try renderings(sandbox)
        #expect(row("Next reminder", in: text).hasPrefix("none — cannot fire: built-in entries fire only while `notif daemon` runs"), "\(text)")
        #expect(row("Next reminder", in: text).contains("start `notif daemon`"), "\(text)")
        #expect(row("Fires", in: text).hasPrefix("cannot fire: "), "\(text)")
        #expect(row("In sync", in: text) == "yes", "the entry is the one apply writes")
        #expect(json.contains("\"nextReminder\": null") && json.contains("\"reason\": \"daemonNotRunning\""), "\(json)")
        #expect(page.contains("Next reminder: none — cannot fire: notif daemon is not running (start `notif daemon`"), "\(page)")
        // With its autostart entry the daemon starts at the next login: the time is given again.
        try sandbox.daemonStartsAtLogin()
        let waiting = try sandbox.notif(["status", "--json"])
        #expect(waiting.stdout.contains("\"nextReminder\": \"") && waiting.stdout.contains("\"cannotFire\": {}"), "\(waiting)")
    }

    @Test func systemdTimersWithoutSystemdCannotFire() throws {
        let sandbox = Sandbox()
        let systemd = ["NOTIF_SCHEDULER": "systemd", "XDG_RUNTIME_DIR": sandbox.path + "/run"]
        try FileManager.default.createDirectory(atPath: sandbox.path + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try allowAndTurnOn(sandbox, systemd)
        let (text, json, page) = try renderings(sandbox, systemd)
        #expect(row("Next reminder", in: text).hasPrefix("none — cannot fire: no systemd user manager runs and this machine was not started with systemd"), "\(text)")
        #expect(row("Next reminder", in: text).contains("`notif set scheduler auto`"), "\(text)")
        #expect(row("Scheduler", in: text).contains("its timers cannot fire"), "\(text)")
        #expect(json.contains("\"nextReminder\": null") && json.contains("\"reason\": \"noSystemd\""), "\(json)")
        #expect(page.contains("Next reminder: none — cannot fire: no systemd here (s chooses another scheduler)"), "\(page)")
    }

    /// The entry names a copy of notif that is then removed; the notif asking is another one.
    /// (The page applies when it opens, which rewrites the entry for its own program, so the
    /// page's words for this case are checked in `NextReminderCannotFireTests`.)
    @Test func anEntryWhoseProgramWasRemovedCannotFire() throws {
        let sandbox = Sandbox()
        let systemd = ["NOTIF_SCHEDULER": "systemd", "XDG_RUNTIME_DIR": sandbox.path + "/run"]
        try FileManager.default.createDirectory(atPath: sandbox.path + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let copy = try NotifBinary.publicCopy(in: sandbox)
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        #expect(try run([copy, "permission", "allow"], environment: sandbox.environment(systemd)).status == 0)
        #expect(try run([copy, "set", "tips-and-updates", "on"], environment: sandbox.environment(systemd)).status == 0)
        try FileManager.default.removeItem(atPath: copy)
        let text = try sandbox.notif(["status"], systemd).stdout
        let json = try sandbox.notif(["status", "--json"], systemd).stdout
        #expect(row("Next reminder", in: text).hasPrefix("none — cannot fire: its program \"\(copy)\" is gone or not executable"), "\(text)")
        #expect(row("Next reminder", in: text).contains("run `notif apply` from the installed notif"), "\(text)")
        #expect(row("Fires", in: text).hasPrefix("cannot fire: its program"), "\(text)")
        #expect(json.contains("\"nextReminder\": null") && json.contains("\"reason\": \"programMissing\""), "\(json)")
        // `notif apply` from this notif rewrites the entry for a program that exists.
        #expect(try sandbox.notif(["apply"], systemd).status == 0)
        #expect(!(try sandbox.notif(["status", "--json"], systemd).stdout.contains("programMissing")))
    }
}
