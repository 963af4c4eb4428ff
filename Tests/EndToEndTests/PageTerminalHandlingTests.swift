import Foundation
import Testing

/// The page and the terminal around it: Ctrl-Z and SIGTSTP suspend (the terminal as it was,
/// `fg` paints the page whole), Alt keys are never Esc, and terminals without an alternate
/// screen are left clean.
@Suite struct PageTerminalHandlingTests {
    func env(_ sandbox: Sandbox, _ extra: [String: String] = [:]) -> [String: String] {
        var env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/nonexistent", "NOTIF_SCHEDULER": "embedded"])
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// The page started from an interactive shell with job control, as people run notif.
    private func pageInAShell(_ sandbox: Sandbox) throws -> TmuxPane {
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane("env -i PS1='shell> ' TERM=tmux-256color PATH=/usr/bin:/bin HOME=\(shellQuote(sandbox.path)) bash --norc --noprofile -i")
        try pane.waitFor("shell>")
        try pane.send(keys: [notifCommand(env: env(sandbox)), "Enter"])
        try pane.waitFor("Scheduler: embedded")
        return pane
    }

    @Test(arguments: ["TSTP", "C-z"])
    func suspendGivesTheTerminalBackAndFgRepaints(how: String) throws {
        let sandbox = Sandbox()
        let pane = try pageInAShell(sandbox)
        try pane.send("Down")
        try pane.waitFor("› [ ] Tips & Updates")
        if how == "TSTP" { kill(try pane.pid(of: "notif"), SIGTSTP) } else { try pane.send("C-z") }
        try pane.waitFor("Stopped")
        // The shell has the terminal as it was: typed text echoes, a line is read whole.
        try pane.send(keys: ["stty -a | tr '\\n' ' '; echo '[stty-done]'", "Enter"])
        let screen = try pane.waitFor("[stty-done]\n")
        #expect(isSane(screen.replacingOccurrences(of: "\n", with: "")), "\(screen)")
        #expect(!screen.contains("Push Notifications"), "the page is not on the shell's screen")
        try pane.send(keys: ["fg", "Enter"])
        // The whole page again, nothing of the shell's left in it.
        try pane.waitFor("› [ ] Tips & Updates")
        let page = try pane.waitFor("? help")
        for text in [" Notifications", "Push Notifications", "Vibration", "Next reminder:", "Scheduler: embedded"] {
            #expect(page.contains(text), "after fg: \(page)")
        }
        #expect(!page.contains("stty-done") && !page.contains("Stopped"), "after fg: \(page)")
        // The page still works.
        try pane.send("Down")
        try pane.waitFor("› [x] Queue alerts")
        try pane.send("q")
        try pane.waitForAbsence("Push Notifications")
        try pane.send(keys: ["echo \"[exit=$?]\"", "Enter"])
        try pane.waitFor("[exit=0]")
    }

    @Test func aCrashAfterFgStillGivesTheTerminalBack() throws {
        let sandbox = Sandbox()
        let pane = try pageInAShell(sandbox)
        try pane.send("C-z")
        try pane.waitFor("Stopped")
        try pane.send(keys: ["fg", "Enter"])
        try pane.waitFor("Push Notifications")
        #expect(try pane.modes()["alternate_on"] == "1", "the page is back on the alternate screen")
        kill(try pane.pid(of: "notif"), SIGSEGV)
        try pane.waitFor("Segmentation fault")
        let modes = try pane.modes()
        #expect(modes == ["alternate_on": "0", "mouse_any_flag": "0", "mouse_standard_flag": "0", "keypad_cursor_flag": "0",
                          "keypad_flag": "0", "cursor_flag": "1"])
    }

    @Test func altKeysAreNeverTakenForEsc() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Scheduler: embedded")
        let before = sandbox.read(sandbox.settingsPath)
        // Alt+j, Alt+x, Alt+Enter, Alt+q: Esc and a key in one write, as terminals send them.
        for sequence in ["\u{1b}j", "\u{1b}x", "\u{1b}\r", "\u{1b}q"] {
            try pane.send(bytes: Array(sequence.utf8))
        }
        try pane.send("Down")
        try pane.waitFor("› [ ] Tips & Updates")
        #expect(sandbox.read(sandbox.settingsPath) == before)
        // Alt+d in the prompt does not close it undecided.
        try pane.send("p")
        try pane.waitFor("Allow notifications?")
        try pane.send(bytes: Array("\u{1b}d".utf8))
        try pane.send("Right")
        try pane.waitFor("[ Don't allow ]")
        #expect(sandbox.read(sandbox.settingsPath) == before)
        // Esc alone still closes, and quits.
        try pane.send("Escape")
        try pane.waitForAbsence("Allow notifications?")
        try pane.send("Escape")
        #expect(try pane.finished().status == 0)
    }

    @Test(arguments: ["linux", "vt100", "vt220"])
    func aTerminalWithoutAnAlternateScreenIsLeftClean(term: String) throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox, ["TERM": term])))
        try pane.waitFor("Next reminder:")
        try pane.send("q")
        let (status, stty) = try pane.finished()
        #expect(status == 0 && isSane(stty))
        let lines = try pane.capture().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The frame is gone and the shell went on at the bottom: only blank lines above its output.
        let first = try #require(lines.firstIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(lines[first].hasPrefix("[exit=0]"), "TERM=\(term): \(lines.joined(separator: "\n"))")
        for text in ["Notifications", "Push Notifications", "q quit", "Next reminder"] {
            #expect(!lines.contains { $0.contains(text) }, "TERM=\(term): \(text) left on screen")
        }
    }
}

/// Quitting with a change that could not be saved asks; quitting anyway says what was lost and
/// exits 1. A read-only config directory needs a user root's permissions do not cover.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct PageUnsavedQuitTests {
    /// The page, as `user`, open on saved settings; then its config directory made read-only.
    func pageWithReadOnlyConfig(_ user: TestUser, _ sandbox: Sandbox, stderrToPane: Bool) throws -> (TmuxPane, String) {
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let configDir = user.home + "/.config/notif"
        _ = try user.run(["mkdir", "-p", configDir])
        _ = try user.run(["sh", "-c", "printf '{\"onboardingCompleted\": true}' > \"$0\"", user.settingsPath])
        let env = user.environment(["TERM": "tmux-256color", "NOTIF_SCHEDULER": "embedded"])
        let pane = try TmuxPane(notifCommand(env: env, binary: binary, asUser: user.name) + (stderrToPane ? " 2>&1" : ""))
        try pane.waitFor("Scheduler: embedded")
        chmod(configDir, 0o500)
        return (pane, configDir)
    }

    @Test func quittingWithAnUnsavedChangeAsksAndQuitAnywayExitsOne() throws {
        let user = try TestUser.make("notif-tr12-pq")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let (pane, configDir) = try pageWithReadOnlyConfig(user, sandbox, stderrToPane: true)
        defer { chmod(configDir, 0o700) }
        try pane.send("Down", "Down", "Space")
        try pane.waitFor("Not saved:")
        try pane.send("q")
        try pane.waitFor("Quit without saving?")
        try pane.waitFor("Not saved: Queue alerts off.")
        // Esc: back to the page, the change still shown.
        try pane.send("Escape")
        try pane.waitForAbsence("Quit without saving?")
        try pane.waitFor("[ ] Queue alerts")
        // Save again while still read-only: asked again.
        try pane.send("q")
        try pane.waitFor("[ Save again ]")
        try pane.send("Enter")
        try pane.waitFor("Tried again, still not saved: Queue alerts off.")
        try pane.send("Right", "Enter")
        let (status, stty) = try pane.finished()
        #expect(status == 1 && isSane(stty))
        let screen = try pane.capture().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("notif: not saved: Queue alerts off"), "\(screen)")
        #expect(user.read(user.settingsPath)?.contains("\"queueAlerts\": false") != true)
    }

    @Test func saveAgainThatWorksQuits() throws {
        let user = try TestUser.make("notif-tr12-ps")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let (pane, configDir) = try pageWithReadOnlyConfig(user, sandbox, stderrToPane: false)
        try pane.send("Down", "Down", "Space")
        try pane.waitFor("Not saved:")
        chmod(configDir, 0o700)
        try pane.send("q")
        try pane.waitFor("[ Save again ]")
        try pane.send("Enter")
        #expect(try pane.finished().status == 0)
        #expect(user.read(user.settingsPath)?.contains("\"queueAlerts\": false") == true)
    }
}
