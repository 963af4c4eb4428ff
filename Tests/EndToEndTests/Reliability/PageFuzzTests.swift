import Foundation
import TestSupport
import Testing

/// Random keys, raw escape sequences and bytes, and resizes into the real page: it never crashes,
/// settings.json stays valid, and what is scheduled always matches the settings.
@Suite struct PageFuzzTests {
    /// tmux key names; the quitting keys (q, Esc, Ctrl-C) are left out so the page keeps running.
    static let keys = ["Up", "Down", "Left", "Right", "Enter", "Tab", "BTab", "Space", "BSpace", "Home", "End", "PPage",
                       "NPage", "F1", "F5", "IC", "DC", "j", "k", "h", "l", "p", "t", "H", "?", "r", "a", "d", "x", "1", "é", "C-l"]

    /// Raw bytes a terminal might send that tmux has no key name for: unknown CSI and SS3
    /// sequences, mouse reports at random cells, invalid and cut UTF-8, control bytes. What
    /// quits is left out (q, Ctrl-C, and ESC other than as a sequence's start).
    static func rawInput(_ random: inout SeededRandom) -> [UInt8] {
        func pick(_ range: ClosedRange<Int>) -> UInt8 { UInt8(range.lowerBound + Int(random.next() % UInt64(range.count))) }
        switch random.next() % 6 {
        case 0: // CSI: parameters, maybe an intermediate, a final byte
            let parameters = (0..<Int(random.next() % 6)).map { _ in pick(0x30...0x3F) }
            let intermediate = random.next() % 4 == 0 ? [pick(0x20...0x2F)] : []
            return [0x1b, 0x5b] + parameters + intermediate + [pick(0x40...0x7E)]
        case 1: return [0x1b, 0x4f, pick(0x40...0x7E)] // SS3
        case 2: return [0x1b, 0x5b, 0x4d, pick(32...35), pick(33...112), pick(33...56)] // X10 mouse report
        case 3: return [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]][Int(random.next() % 5)]
        case 4: return [[0x00], [0x01], [0x04], [0x07], [0x0e], [0x1a], [0x1c], [0x1f], [0x7f]][Int(random.next() % 9)]
        default: return (0..<Int(1 + random.next() % 4)).map { _ in pick(0x20...0x7E) }.filter { $0 != UInt8(ascii: "q") }
        }
    }

    @Test(.hangGuard)
    func randomKeysAndResizes() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/usr/bin:/bin", "NOTIF_SCHEDULER": "embedded"])
        let pane = try TmuxPane(notifCommand(env: env))
        try pane.waitFor("Next reminder:")
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let total = Soak.count(short: 1000, long: 10_000)
        var sent = 0, rawSent = 0
        while sent < total {
            // Bursts of 1 to 40 keys, each followed by the checks.
            let chunk = min(1 + Int(random.next() % 40), total - sent)
            let names = (0..<chunk).map { _ in Self.keys[Int(random.next() % UInt64(Self.keys.count))] }
            try pane.send(keys: names)
            sent += chunk
            if random.next() % 2 == 0 {
                let raw = (0..<Int(1 + random.next() % 4)).flatMap { _ in Self.rawInput(&random) }
                try pane.send(bytes: raw)
                rawSent += raw.count
            }
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
        print("figures: key fuzzing (real page in tmux): \(total) random keys and \(rawSent) raw bytes with resizes, seed \(seed); held")
    }
}
