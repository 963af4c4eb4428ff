import Foundation
import Testing
import TestSupport

/// The page while the programs it runs hang: a `crontab` (a slow NFS home, a locked spool) and a
/// `notify-send` that never answer. Keys still move and repaint; q, Esc, Ctrl-C, SIGTERM and
/// SIGHUP give the terminal back and end the page, and the hung program's whole process group
/// with it; changes made meanwhile are saved in order. (`make bench` measures how fast.)
@Suite struct PageHangTests {
    /// A fake `crontab` that writes its pid and a child's to `pids` and waits a minute.
    func hangingCrontab(_ sandbox: Sandbox) throws -> (FakeTools, String) {
        let fakes = try FakeTools(in: sandbox)
        let pids = sandbox.path + "/crontab-pids"
        try fakes.add("crontab", "echo $$ >> \(pids)\nsleep 60 &\necho $! >> \(pids)\nwait")
        return (fakes, pids)
    }

    func env(_ sandbox: Sandbox, _ fakes: FakeTools, _ extra: [String: String] = [:]) -> [String: String] {
        var env = sandbox.environment(["TERM": "tmux-256color", "PATH": fakes.path, "NOTIF_SCHEDULER": "cron"])
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test(arguments: ["q", "Escape", "C-c", "TERM", "HUP"])
    func keysAnswerWhileCrontabHangsAndQuittingEndsIt(ending: String) throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"tipsAndUpdates\": true, \"permission\": \"granted\"}", to: sandbox.settingsPath)
        let (fakes, pids) = try hangingCrontab(sandbox)
        let pane = try TmuxPane(notifCommand(env: env(sandbox, fakes)) + " 2>&1")
        try pane.waitFor("Next reminder:")
        // The page's first look at the scheduler is hanging in crontab -l.
        #expect(waitUntil(10) { (sandbox.read(pids) ?? "").split(separator: "\n").count == 2 }, "crontab never started")
        try pane.waitFor("Scheduler: checking", seconds: 30)   // a loaded machine starts the page late
        // Keys move focus and repaint meanwhile (crontab hangs for a minute; notif gives it 20 s).
        try pane.send("Down")
        try pane.waitFor("› [x] Tips & Updates", seconds: 5)
        // Changes: Queue alerts off, on, off; Tips & Updates off. Saved in order; the last wins.
        try pane.send("Down", "Space", "Space", "Space", "Up", "Space")
        try pane.waitForLine(containing: "Tips & Updates", seconds: 5) { $0.contains("[ ] Tips & Updates") }
        #expect(waitUntil(5) {
            let text = sandbox.read(sandbox.settingsPath) ?? ""
            return text.contains("\"queueAlerts\": false") && text.contains("\"tipsAndUpdates\": false")
        }, "\(sandbox.read(sandbox.settingsPath) ?? "")")
        let running = (sandbox.read(pids) ?? "").split(separator: "\n").compactMap { pid_t($0) }
        #expect(running.allSatisfy(isRunning), "crontab stopped hanging before the test was done: \(running)")
        let started = Date()
        switch ending {
        case "TERM": kill(try pane.pid(of: "notif"), SIGTERM)
        case "HUP": kill(try pane.pid(of: "notif"), SIGHUP)
        default: try pane.send(ending)
        }
        let (status, stty) = try pane.finished(seconds: 5)
        print("figures: page: \(ending) while crontab hangs: the shell had the terminal back \(String(format: "%.2f", elapsed(since: started))) s after it was sent (tmux round trips included)")
        #expect(isSane(stty), "\(ending): \(stty)")
        #expect(try pane.cursorVisible())
        for pid in (sandbox.read(pids) ?? "").split(separator: "\n").compactMap({ pid_t($0) }) {
            #expect(waitUntil(2) { !isRunning(pid) }, "\(ending): crontab's group member \(pid) still runs")
        }
        let settings = sandbox.read(sandbox.settingsPath) ?? ""
        #expect(settings.contains("\"queueAlerts\": false") && settings.contains("\"tipsAndUpdates\": false"), "\(settings)")
        switch ending {
        case "TERM": #expect(status == 128 + Int(SIGTERM))
        case "HUP": #expect(status == 128 + Int(SIGHUP))
        default:
            // Saved, but crontab never answered: the scheduler may still hold the entry. Said, and exit 1.
            #expect(status == 1, "\(ending)")
            let screen = try pane.capture().replacingOccurrences(of: "\n", with: "")
            #expect(screen.contains("crontab was still running and was stopped") && screen.contains("`notif apply`"), "\(screen)")
        }
    }

    @Test func keysAnswerWhileTheNotificationServiceHangs() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"permission\": \"granted\"}", to: sandbox.settingsPath)
        let service = try HangingNotificationService(socket: sandbox.path + "/bus", logs: sandbox.path)
        let env = sandbox.environment(["TERM": "tmux-256color", "DBUS_SESSION_BUS_ADDRESS": service.busAddress])
        let pane = try TmuxPane(notifCommand(env: env))
        try pane.waitFor("Scheduler: embedded")
        try pane.send("t")
        try pane.waitFor("Sending a test notification")
        // notif gives a notification service 5 s: the keys answer long before.
        try pane.send("Down")
        try pane.waitFor("› [ ] Tips & Updates", seconds: 3)
        try pane.send("H")
        try pane.waitFor("History", seconds: 3)
        // (Esc and q sent together would arrive as Alt+q, which does nothing.)
        try pane.send("Escape")
        try pane.waitFor("Next reminder:", seconds: 3)
        // Then the try gives up and says so.
        try pane.waitFor("Test notification not sent", seconds: 10)
        try pane.send("q")
        let (status, stty) = try pane.finished(seconds: 5)
        #expect(status == 0 && isSane(stty))
    }
}

/// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}
