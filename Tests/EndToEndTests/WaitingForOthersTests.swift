import Foundation
import Testing
import TestSupport

/// A command that must wait for someone else says so, and waits rather than fail: another
/// process holding notif's lock (a hung `crontab` under another notif, say), and a write of
/// settings.json paused halfway. The shipped binary.
@Suite struct WaitingForOthersTests {
    /// Whether some process holds the lock file at `path` (`flock -n` cannot take it).
    static func held(_ path: String) -> Bool {
        ((try? run(["/usr/bin/flock", "-n", path, "/bin/true"], environment: ["PATH": "/usr/bin:/bin"]))?.status ?? 0) != 0
    }

    /// Another process holds the settings lock until the test lets go: `set` says whom it
    /// waits for, then does its work once the lock is free.
    @Test(.hangGuard)
    func aLockHeldByAnotherProcessIsSaidAndThenTaken() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"permission\": \"granted\", \"onboardingCompleted\": true}\n", to: sandbox.settingsPath)
        let lock = sandbox.configDir + "/.settings.lock"
        let release = sandbox.path + "/release"
        let holder = try BackgroundProcess(["/usr/bin/flock", lock, "/bin/sh", "-c", "while [ ! -e \(release) ]; do sleep 0.05; done"],
                                           environment: ["PATH": "/usr/bin:/bin"], output: sandbox.path + "/flock.log")
        defer { kill(holder.pid, SIGKILL) }
        #expect(waitUntil(30) { Self.held(lock) }, "flock did not take the lock")
        let output = sandbox.path + "/set.log"
        let env = sandbox.environment()
        let set = try BackgroundProcess(["/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + [NotifBinary.path, "set", "queue-alerts", "off"],
                                        environment: env, output: output)
        defer { kill(set.pid, SIGKILL) }
        let said = "notif: waiting for another notif to finish (it holds \(lock))"
        #expect(waitUntil(60) { (try? String(contentsOfFile: output, encoding: .utf8))?.contains(said) == true },
                "not said: \(String(describing: try? String(contentsOfFile: output, encoding: .utf8)))")
        #expect(set.isRunning, "it did not wait")
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(set.waitForExit(60) && set.exitCode == 0, "\(String(describing: try? String(contentsOfFile: output, encoding: .utf8)))")
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"queueAlerts\": false") == true)
        // Nobody holding it: nothing said.
        let quick = try sandbox.notif(["set", "queue-alerts", "on"])
        #expect(quick.status == 0 && !quick.stderr.contains("waiting"), "\(quick)")
    }

    /// settings.json written in two steps with a pause between (`{ cat a; pause; cat b; } >`):
    /// a command in the pause waits for the write to finish; `set` then changes only its own
    /// setting, the others read the finished file.
    @Test(.hangGuard, arguments: [["set", "queue-alerts", "off"], ["status"], ["apply"], ["permission", "status"]])
    func aCommandDuringAWritePausedHalfwayWaitsForIt(_ command: [String]) throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"permission\": \"granted\", \"onboardingCompleted\": true}\n", to: sandbox.settingsPath)
        let half = sandbox.path + "/half", release = sandbox.path + "/release"
        let script = "printf '{\"permission\": \"granted\",\\n' > \(shellQuote(sandbox.settingsPath)) && "
            + "{ touch \(half); while [ ! -e \(release) ]; do sleep 0.05; done; printf '\"onboardingCompleted\": true, \"mine\": 7}\\n'; } >> \(shellQuote(sandbox.settingsPath))"
        let writer = try BackgroundProcess(["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], output: sandbox.path + "/writer.log")
        defer { kill(writer.pid, SIGKILL) }
        #expect(waitUntil(30) { FileManager.default.fileExists(atPath: half) }, "the writer did not start")
        let output = sandbox.path + "/set.log"
        let env = sandbox.environment()
        let set = try BackgroundProcess(["/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + [NotifBinary.path] + command,
                                        environment: env, output: output)
        defer { kill(set.pid, SIGKILL) }
        // Once it has run a moment longer than notif waits for quiet, it has met the half-written file.
        let started = Date()
        _ = waitUntil(10) { !set.isRunning || Date().timeIntervalSince(started) > 2.5 }
        #expect(set.isRunning, "it did not wait for the write: \(String(describing: try? String(contentsOfFile: output, encoding: .utf8)))")
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(set.waitForExit(60) && set.exitCode == 0, "\(String(describing: try? String(contentsOfFile: output, encoding: .utf8)))")
        let text = sandbox.read(sandbox.settingsPath) ?? ""
        #expect(text.contains("\"mine\": 7") && text.contains("\"onboardingCompleted\": true"), "\(text)")
        #expect(text.contains("\"queueAlerts\": false") == (command[0] == "set"), "\(text)")
    }
}
