import Foundation
import TestSupport
import Testing

/// The terminal comes back usable whatever ends the page, and the layout survives abuse.
@Suite struct TerminalReliabilityTests {
    func env(_ sandbox: Sandbox) -> [String: String] {
        sandbox.environment(["TERM": "tmux-256color", "PATH": "/nonexistent", "NOTIF_SCHEDULER": "embedded"])
    }

    func page(_ sandbox: Sandbox) throws -> TmuxPane {
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        return pane
    }

    @Test(arguments: ["q", "Escape", "C-c", "TERM", "HUP", "QUIT", "SEGV", "ILL"])
    func theCursorIsVisibleAndTheTerminalSaneAfterwards(ending: String) throws {
        let sandbox = Sandbox()
        let pane = try page(sandbox)
        if ending.count <= 3 && ending.uppercased() != ending || ending == "Escape" || ending == "C-c" {
            try pane.send(ending)
        } else {
            let signals: [String: Int32] = ["TERM": SIGTERM, "HUP": SIGHUP, "QUIT": SIGQUIT, "SEGV": SIGSEGV, "ILL": SIGILL]
            kill(try pane.pid(of: "notif"), signals[ending]!)
        }
        let (_, stty) = try pane.finished()
        #expect(isSane(stty), "\(ending): \(stty)")
        #expect(try pane.cursorVisible(), "\(ending): the cursor is hidden")
    }

    @Test func aClosedPaneEndsThePage() throws {
        let sandbox = Sandbox()
        let pane = try page(sandbox)
        let pid = try pane.pid(of: "notif")
        try pane.killPane()
        // The terminal is gone: notif must end (no process spinning on a dead terminal).
        #expect(waitUntil(5) { kill(pid, 0) != 0 }, "notif \(pid) is still running after its pane closed")
    }

    @Test func aHundredResizesEndInTheRightLayout() throws {
        let sandbox = Sandbox()
        let pane = try page(sandbox)
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let started = Date()
        for _ in 0..<100 {
            try pane.resize(width: 20 + Int(random.next() % 120), height: 5 + Int(random.next() % 40))
        }
        let took = Date().timeIntervalSince(started)
        try pane.resize(width: 80, height: 24)
        try pane.waitForLine(containing: "Next reminder:") { $0.hasPrefix(" Next reminder:") }
        // The title row is repainted with the rest: wait for it too, then read the whole screen.
        try pane.waitForLine(containing: " Notifications") { $0.hasSuffix("Guest project") }
        let screen = try pane.capture()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix(" Notifications") == true, "\(screen)")
        #expect(lines.first?.hasSuffix("Guest project") == true, "\(screen)")
        #expect(lines.count >= 24 && lines[3].contains("Push Notifications") && lines[8].contains("Vibration"), "\(screen)")
        try pane.resize(width: 20, height: 5)
        try pane.waitFor("Too small")
        try pane.resize(width: 80, height: 24)
        try pane.waitFor("Push Notifications")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        print("figures: terminal: 100 random resizes in \(String(format: "%.1f", took)) s, then 80×24: layout correct (seed \(seed))")
    }
}
