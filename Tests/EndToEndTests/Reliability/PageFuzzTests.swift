import Foundation
import TestSupport
import Testing

/// Random keys (escape sequences included) and resizes into the real page: it never crashes,
/// settings.json stays valid, and what is scheduled always matches the settings.
@Suite struct PageFuzzTests {
    /// tmux key names; the quitting keys (q, Esc, Ctrl-C) are left out so the page keeps running.
    static let keys = ["Up", "Down", "Left", "Right", "Enter", "Tab", "BTab", "Space", "BSpace", "Home", "End", "PPage",
                       "NPage", "F1", "F5", "IC", "DC", "j", "k", "h", "l", "p", "t", "H", "?", "r", "a", "d", "x", "1", "é", "C-l"]

    @Test(.timeLimit(.minutes(10)))
    func randomKeysAndResizes() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/usr/bin:/bin", "NOTIF_SCHEDULER": "embedded"])
        let pane = try TmuxPane(notifCommand(env: env))
        try pane.waitFor("Next reminder:")
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let total = Soak.count(short: 1000, long: 10_000)
        var sent = 0
        while sent < total {
            let chunk = min(40, total - sent)
            let names = (0..<chunk).map { _ in Self.keys[Int(random.next() % UInt64(Self.keys.count))] }
            try pane.send(keys: names)
            sent += chunk
            if random.next() % 4 == 0 {
                try pane.resize(width: 30 + Int(random.next() % 100), height: 8 + Int(random.next() % 30))
            }
            // Once the screen holds still, the page has caught up: check what it saved and scheduled.
            var last = ""
            _ = try waitUntil(3) {
                let now = try pane.capture()
                defer { last = now }
                return now == last
            }
            let text = try #require(sandbox.read(sandbox.settingsPath), "seed \(seed)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "seed \(seed): \(text)")
            // The plan follows the saved settings, and the schedule follows the plan (the page may
            // be finishing an apply: allow it a moment).
            var status = RunResult(status: -1, stdout: "", stderr: "")
            let agrees = try waitUntil(3) {
                status = try sandbox.notif(["status", "--json"], ["NOTIF_SCHEDULER": "embedded"])
                guard let report = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                      let settings = try? JSONSerialization.jsonObject(with: Data((sandbox.read(sandbox.settingsPath) ?? "").utf8)) as? [String: Any]
                else { return false }
                let planned = (settings["pushNotifications"] as? Bool ?? true) && (settings["tipsAndUpdates"] as? Bool ?? false)
                    && settings["permission"] as? String == "granted"
                return (report["planned"] as? [String])?.isEmpty == !planned && report["inSync"] as? Bool == true
            }
            #expect(agrees, "seed \(seed) after \(sent) keys: \(status.stdout)")
            #expect(try pane.pid(of: "notif") > 0, "seed \(seed): the page is gone after \(sent) keys")
        }
        try pane.resize(width: 80, height: 24)
        try pane.send(keys: ["C-c"])
        let (code, stty) = try pane.finished()
        #expect(code == 0, "seed \(seed)")
        #expect(isSane(stty))
        print("figures: key fuzzing (real page in tmux): \(total) random keys with resizes, seed \(seed); held")
    }
}
