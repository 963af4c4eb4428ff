import Foundation
import Testing
import TestSupport

/// A command that must wait for someone else says so, and waits rather than fail: another
/// process holding notif's lock (a hung `crontab` under another notif, say), and a write of
/// settings.json paused halfway. The shipped binary.
@Suite struct WaitingForOthersTests {
    /// Another process holds the settings lock for a while: `set` says whom it waits for, then
    /// does its work once the lock is free.
    @Test(.timeLimit(.minutes(2)))
    func aLockHeldByAnotherProcessIsSaidAndThenTaken() async throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"permission\": \"granted\", \"onboardingCompleted\": true}\n", to: sandbox.settingsPath)
        let lock = sandbox.configDir + "/.settings.lock"
        let held = sandbox.path + "/held"
        let holder = try BackgroundProcess(["/usr/bin/flock", lock, "/bin/sh", "-c", "touch \(held); sleep 3"],
                                           environment: ["PATH": "/usr/bin:/bin"], output: sandbox.path + "/flock.log")
        defer { kill(holder.pid, SIGKILL) }
        #expect(await poll(for: 10) { FileManager.default.fileExists(atPath: held) }, "flock did not take the lock")
        let set = try sandbox.notif(["set", "queue-alerts", "off"])
        #expect(set.status == 0, "\(set)")
        #expect(set.stderr.contains("notif: waiting for another notif to finish (it holds \(lock))"), "\(set)")
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"queueAlerts\": false") == true)
        // Nobody holding it: nothing said.
        let quick = try sandbox.notif(["set", "queue-alerts", "on"])
        #expect(quick.status == 0 && !quick.stderr.contains("waiting"), "\(quick)")
    }

    /// settings.json written in two steps with a pause between (`{ cat a; sleep 2; cat b; } >`):
    /// a `set` in the pause waits for the write to finish, then changes only its own setting.
    @Test(.timeLimit(.minutes(2)))
    func setDuringAWritePausedHalfwayWaitsForIt() async throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"permission\": \"granted\", \"onboardingCompleted\": true}\n", to: sandbox.settingsPath)
        let half = sandbox.path + "/half"
        let script = "printf '{\"permission\": \"granted\",\\n' > \(shellQuote(sandbox.settingsPath)) && "
            + "{ touch \(half); sleep 2; printf '\"onboardingCompleted\": true, \"mine\": 7}\\n'; } >> \(shellQuote(sandbox.settingsPath))"
        let writer = try BackgroundProcess(["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], output: sandbox.path + "/writer.log")
        defer { kill(writer.pid, SIGKILL) }
        #expect(await poll(for: 10) { FileManager.default.fileExists(atPath: half) }, "the writer did not start")
        let set = try sandbox.notif(["set", "queue-alerts", "off"])
        #expect(set.status == 0, "it did not wait for the write: \(set)")
        let text = sandbox.read(sandbox.settingsPath) ?? ""
        #expect(text.contains("\"mine\": 7") && text.contains("\"queueAlerts\": false") && text.contains("\"onboardingCompleted\": true"), "\(text)")
    }
}
