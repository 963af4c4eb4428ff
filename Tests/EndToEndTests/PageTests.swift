import Foundation
import Testing
import TestSupport

/// The settings page, the real binary in a real terminal.
@Suite struct PageTerminalTests {
    /// A sandbox environment for the page; PATH without crontab keeps root's own crontab out of it.
    func env(_ sandbox: Sandbox, _ extra: [String: String] = [:]) -> [String: String] {
        var env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/nonexistent"])
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test func firstStartShowsOnboardingThenThePageAndQuitRestoresTheTerminal() throws {
        let sandbox = Sandbox()
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Welcome to notif")
        try pane.send("Enter")
        try pane.waitFor("Turn on Tips & Updates now?")
        try pane.send("Right", "Enter")
        let page = try pane.waitFor("Next reminder:")
        #expect(page.contains("Push Notifications") && page.contains("[ ] Tips & Updates"))
        #expect(waitUntil(5) { sandbox.read(sandbox.settingsPath)?.contains("\"onboardingCompleted\": true") == true })
        try pane.send("q")
        let (status, stty) = try pane.finished()
        #expect(status == 0)
        #expect(isSane(stty), "stty after q: \(stty)")
    }

    @Test(arguments: ["Escape", "C-c"])
    func escapeAndCtrlCQuitCleanly(key: String) throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        try pane.send(key)
        let (status, stty) = try pane.finished()
        #expect(status == 0)
        #expect(isSane(stty), "stty after \(key): \(stty)")
    }

    @Test(arguments: [("TERM", SIGTERM), ("HUP", SIGHUP), ("QUIT", SIGQUIT), ("INT", SIGINT), ("SEGV", SIGSEGV), ("ILL", SIGILL)])
    func signalsRestoreTheTerminal(name: String, signal: Int32) throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        kill(try pane.pid(of: "notif"), signal)
        let (status, stty) = try pane.finished()
        #expect(status == 128 + Int(signal), "SIG\(name)")
        #expect(isSane(stty), "stty after SIG\(name): \(stty)")
        // A crash (SEGV, ILL) gives the terminal back from its signal handler, without ncurses.
        let modes = try pane.modes()
        #expect(modes == ["alternate_on": "0", "mouse_any_flag": "0", "mouse_standard_flag": "0", "keypad_cursor_flag": "0",
                          "keypad_flag": "0", "cursor_flag": "1"], "modes after SIG\(name)")
    }

    @Test func thePageFollowsChangesOtherProcessesMakeAndKeepsItsOwn() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        #expect(try sandbox.notif(["set", "promotions", "on"], ["PATH": "/nonexistent"]).status == 0)
        try pane.waitForLine(containing: "Promotions") { $0.contains("[x] Promotions") }
        // The page's own change goes in while another process changes something else.
        try pane.send("Down", "Down", "Space")
        try pane.waitForLine(containing: "Queue alerts") { $0.contains("[ ] Queue alerts") }
        #expect(try sandbox.notif(["set", "vibration", "off"], ["PATH": "/nonexistent"]).status == 0)
        try pane.waitForLine(containing: "Vibration") { $0.contains("[ ] Vibration") }
        let settings = sandbox.read(sandbox.settingsPath) ?? ""
        #expect(settings.contains("\"promotions\": true") && settings.contains("\"queueAlerts\": false") && settings.contains("\"vibration\": false"))
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    @Test func resizingToTooSmallAndBack() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        try pane.resize(width: 30, height: 8)
        try pane.waitFor("Terminal too small")
        try pane.waitFor("needs 48×16, is 30×8")
        try pane.resize(width: 80, height: 24)
        try pane.waitFor("Next reminder:")
        try pane.waitForAbsence("too small")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    @Test func togglingTipsAsksAndDontAllowBlocks() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        try pane.send("Down", "Space")
        try pane.waitFor("Allow notifications?")
        try pane.send("d")
        try pane.waitFor("blocked: permission is Don't allow (p changes it)")
        #expect(waitUntil(5) { sandbox.read(sandbox.settingsPath)?.contains("\"permission\": \"denied\"") == true })
        try pane.send("p")
        try pane.waitFor("Allow notifications?")
        try pane.send("Escape")
        try pane.waitForAbsence("Allow notifications?")
        try pane.send("Escape")
        #expect(try pane.finished().status == 0)
    }

    @Test func togglingTipsAndAllowingSchedulesTheReminder() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox, ["NOTIF_SCHEDULER": "embedded"])))
        try pane.waitFor("Scheduler: embedded")
        try pane.send("Down", "Space")
        try pane.waitFor("Allow notifications?")
        try pane.send("a")
        try pane.waitForLine(containing: "Next reminder:") { $0.contains(" 09:00") }
        #expect(FileManager.default.fileExists(atPath: sandbox.embeddedEntry))
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"permission\": \"granted\"") == true)
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// Clicks from the real terminal: on a row (it toggles, asking first), on the prompt's
    /// Allow button, then on the row again (it turns off).
    @Test func mouseClicksOnARowAndOnThePromptsButton() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox, ["NOTIF_SCHEDULER": "embedded"])))
        try pane.waitFor("Scheduler: embedded")
        let tips = try #require(try pane.position(of: "Tips & Updates"))
        try pane.click(row: tips.row, column: tips.column + 2)
        try pane.waitFor("Allow notifications?")
        let allow = try #require(try pane.position(of: "Allow ]") ?? pane.position(of: "Allow"))
        try pane.click(row: allow.row, column: allow.column + 1)
        try pane.waitForLine(containing: "Next reminder:") { $0.contains(" 09:00") }
        #expect(FileManager.default.fileExists(atPath: sandbox.embeddedEntry))
        try pane.click(row: tips.row, column: tips.column + 2)
        try pane.waitForLine(containing: "Next reminder:") { $0.contains("Tips & Updates is off") }
        #expect(waitUntil(5) { !FileManager.default.fileExists(atPath: sandbox.embeddedEntry) })
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// Sequences the terminal entry names no key for (a modified key, an SGR mouse report, an
    /// unknown SS3) are dropped, not taken for Escape: the page stays, nothing changes, and the
    /// keys after them, Escape included, still work.
    @Test func unknownEscapeSequencesAreIgnored() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox, ["NOTIF_SCHEDULER": "embedded"])))
        try pane.waitFor("Scheduler: embedded")
        let before = sandbox.read(sandbox.settingsPath)
        for sequence in ["\u{1b}[99~", "\u{1b}[1;5P", "\u{1b}[<0;5;5M", "\u{1b}OZ", "\u{1b}[200~"] {
            try pane.send(bytes: Array(sequence.utf8))
        }
        // Down comes after them in the input: once the focus has moved, they have been read.
        try pane.send("Down")
        try pane.waitFor("› [ ] Tips & Updates")
        #expect(sandbox.read(sandbox.settingsPath) == before)
        try pane.send("Space")
        try pane.waitFor("Allow notifications?")
        try pane.send("Escape")
        try pane.waitForAbsence("Allow notifications?")
        try pane.send("Escape")
        #expect(try pane.finished().status == 0)
    }

    @Test func helpHistoryAndTestFromThePage() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        try pane.send("?")
        try pane.waitFor("Permission prompt")
        try pane.send("Escape")
        try pane.waitFor("Next reminder:")
        // Not decided yet: t asks first, and sends once allowed.
        try pane.send("t")
        try pane.waitFor("A test is sent")
        try pane.send("a")
        try pane.waitFor("Test notification not sent: no D-Bus session bus")
        try pane.send("H")
        try pane.waitFor("History")
        try pane.waitFor("failed")
        try pane.send("q", "q")
        #expect(try pane.finished().status == 0)
    }

    @Test func noColorAndMonochromeStillShowState() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"pushNotifications\": false}", to: sandbox.settingsPath)
        for extra in [["NO_COLOR": "1"], ["TERM": "vt100"]] {
            let pane = try TmuxPane(notifCommand(env: env(sandbox, extra)))
            try pane.waitFor("Next reminder:")
            let colored = try pane.capture(colors: true)
            #expect(foregroundColours(in: colored).isEmpty, "colours with \(extra): \(foregroundColours(in: colored))")
            let plain = try pane.capture()
            #expect(plain.contains("Paused: Push Notifications is off"))
            #expect(plain.contains("[ ] Push Notifications"))
            try pane.send("q")
            #expect(try pane.finished().status == 0)
        }
    }

    @Test func coloursAreUsedWhenAllowed() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        try pane.waitFor("Next reminder:")
        #expect(!foregroundColours(in: try pane.capture(colors: true)).isEmpty)
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    /// The SGR foreground colour parameters (30–37, 90–97, 38;...) in captured text.
    func foregroundColours(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "\u{1B}[") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "m") else { break }
            for parameter in after[..<end].split(separator: ";") {
                if let n = Int(parameter), (30...38).contains(n) || (90...97).contains(n) { found.append(String(n)) }
            }
            rest = after[end...]
        }
        return found
    }

    @Test func badTerminalsGetAMessageAndExitTwo() throws {
        let sandbox = Sandbox()
        let noTTY = try sandbox.notif([])
        #expect(noTTY.status == 2, "\(noTTY)")
        #expect(noTTY.stderr.contains("needs a terminal"))
        // The value at fault is named, and a TERM this system knows offered where another would help.
        for (term, message) in [
            ("dumb", "notif: TERM=dumb names a terminal that cannot move the cursor; use `notif status` and `notif set` instead"),
            ("no-such-terminal-xyz", "notif: TERM=no-such-terminal-xyz is not known to this system: it has no terminfo entry for it; "
                + "try again with TERM=xterm-256color, or use `notif status` and `notif set` instead"),
            ("", "notif: TERM is not set, so the terminal type is unknown; try again with TERM=xterm-256color, or use"),
        ] {
            let pane = try TmuxPane(notifCommand(env: env(sandbox, ["TERM": term])) + " 2>&1", width: 200)
            try pane.waitFor(message)
            let (status, stty) = try pane.finished()
            #expect(status == 2, "TERM=\(term)")
            #expect(isSane(stty))
        }
    }

    /// Someone who answered the permission on the command line (`notif set`, `notif permission`)
    /// and never ran the wizard gets the page, from the Settings button too; the wizard is for a
    /// first start whose question is still open.
    @Test func anAnsweredPermissionOpensThePageNotTheWizard() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"permission\": \"granted\", \"tipsAndUpdates\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(env: env(sandbox)))
        let screen = try pane.waitFor("Next reminder:")
        #expect(!screen.contains("Welcome to notif") && screen.contains("[x] Tips & Updates"), "\(screen)")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
    }

    @Test func onboardingCommandRunsTheWizardAndLeaves() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true}", to: sandbox.settingsPath)
        let pane = try TmuxPane(notifCommand(["onboarding"], env: env(sandbox)))
        try pane.waitFor("Welcome to notif")
        try pane.send("Enter", "Right", "Enter")
        #expect(try pane.finished().status == 0)
    }
}

/// The page against a throwaway user's real crontab.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct PageSchedulingTests {
    @Test func allowSchedulesAndMasterOffCancels() throws {
        let user = try TestUser.make("notif-tpage")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let env = user.environment(["TERM": "tmux-256color", "NOTIF_SCHEDULER": "cron", "TZ": "Europe/Berlin"])
        let pane = try TmuxPane(notifCommand(env: env, binary: binary, asUser: user.name))
        try pane.waitFor("Welcome to notif")
        try pane.send("Enter")
        try pane.waitFor("Turn on Tips & Updates now?")
        try pane.send("Enter")
        try pane.waitFor("Allow notifications?")
        try pane.send("Enter")
        // Back on the wizard page, Continue focused: Enter finishes the wizard (and does not turn
        // off the page's first switch).
        try pane.waitFor("Tips & Updates is on: a daily reminder at 09:00")
        try pane.send("Enter")
        let line = try pane.waitForLine(containing: "Next reminder:") { !$0.contains("none") }
        #expect(try pane.capture().contains("[x] Push Notifications"))
        // The time; and what it waits for when this machine's cron daemon is not running now.
        #expect(line.hasSuffix("09:00") || line.hasSuffix("09:00, once the cron daemon runs"), "\(line)")
        #expect(try waitUntil(5) { (try user.crontab()).contains("deliver --quiet tips-and-updates") })
        let settings = user.read(user.settingsPath) ?? ""
        #expect(settings.contains("\"tipsAndUpdates\": true") && settings.contains("\"permission\": \"granted\""))
        try pane.send("Space") // focus is on Push Notifications
        try pane.waitFor("Next reminder: none — off (Push Notifications is off)")
        #expect(try waitUntil(5) { try user.crontab().isEmpty })
        try pane.send("q")
        let (status, stty) = try pane.finished()
        #expect(status == 0 && isSane(stty))
    }
}
