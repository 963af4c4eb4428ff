import Foundation
import Testing
import TestSupport

/// `notif edit` in a real terminal with a real editor (vim), and with editors that fail or hang;
/// the page's `e` on a file that does not parse. Nothing the person wrote is lost.
@Suite struct SettingsEditTests {
    static let start = "{\n  \"permission\": \"granted\",\n  \"onboardingCompleted\": true,\n  \"sound\": \"default\",\n  \"mine\": [1, 2]\n}\n"
    let vim = "vim -u DEFAULTS -i NONE -N"

    /// `notif edit` in a pane. Its shell ignores Ctrl-C, as an interactive shell does by giving
    /// the terminal to the command's own process group: Ctrl-C reaches notif and the editor only.
    func editor(_ sandbox: Sandbox, _ editor: String) -> TmuxPane? {
        try? TmuxPane("trap '' INT; " + notifCommand(["edit"], env: sandbox.environment(["TERM": "tmux-256color", "EDITOR": editor])),
                      width: 100, height: 30)
    }

    /// A mistake is named when the editor exits (line, column, fix); edit again fixes it; the file
    /// then holds exactly what was written (spacing, the key notif does not know), 0600, and the
    /// reminder follows it.
    @Test func aMistakeIsNamedAndEditingAgainSavesExactlyWhatWasWritten() throws {
        let sandbox = Sandbox()
        try sandbox.write(Self.start, to: sandbox.settingsPath)
        let pane = try #require(editor(sandbox, vim))
        _ = try pane.waitFor("settings.edit-")
        // A comma after the last value, then tips on.
        try pane.send(keys: ["-l", #":%s/"mine": \[1, 2\]/"mine": [1, 2], "tipsAndUpdates": true,/"#])
        try pane.send("Enter")
        try pane.send(keys: ["-l", ":wq"])
        try pane.send("Enter")
        let said = try pane.waitFor("Edit again (e), or keep the old settings.json")
        #expect(said.contains("the edited settings.json line 5, column 41: a comma before } — remove it"), "\(said)")
        #expect(sandbox.read(sandbox.settingsPath) == Self.start, "nothing replaced yet")
        // Another answer is asked again, with what to type.
        try pane.send("x", "Enter")
        _ = try pane.waitFor("Type e to edit again, or k to keep the old settings.json.")
        try pane.send("e", "Enter")
        _ = try pane.waitFor("settings.edit-")
        try pane.send(keys: ["-l", #":%s/"tipsAndUpdates": true,/"tipsAndUpdates": true/"#])
        try pane.send("Enter")
        try pane.send(keys: ["-l", ":wq"])
        try pane.send("Enter")
        let saved = try pane.waitFor("[exit=")
        #expect(saved.contains("Saved \(sandbox.settingsPath).") && saved.contains("Tips & Updates: scheduled"), "\(saved)")
        #expect(try pane.finished().status == 0)
        let expected = Self.start.replacingOccurrences(of: "\"mine\": [1, 2]", with: "\"mine\": [1, 2], \"tipsAndUpdates\": true")
        #expect(sandbox.read(sandbox.settingsPath) == expected)
        #expect(permissions(sandbox.settingsPath) == 0o600)
        #expect(sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") } == ["settings.json"], "no copy left")
        #expect(FileManager.default.fileExists(atPath: sandbox.embeddedEntry), "applied")
    }

    /// Keep the old file: nothing changes and the edit is dropped, exit 1.
    @Test func keepingTheOldFileChangesNothing() throws {
        let sandbox = Sandbox()
        try sandbox.write(Self.start, to: sandbox.settingsPath)
        let result = try sandbox.notif(["edit"], ["EDITOR": "sed -i s/default/trumpet/"], input: "k\n")
        #expect(result.status == 1 && result.stderr.contains(#""sound" is "trumpet" — use default, chime, bell or silent"#), "\(result)")
        #expect(result.stdout.contains("was not changed; the edit was dropped"), "\(result)")
        #expect(sandbox.read(sandbox.settingsPath) == Self.start)
        #expect(sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") } == ["settings.json"])
    }

    /// An editor that changes nothing changes nothing (no write, no apply); one that fails leaves
    /// settings.json as it was and keeps what it wrote; so does a concurrent change.
    @Test func anUnchangedOrFailedEditChangesNothingAndLosesNothing() throws {
        let sandbox = Sandbox()
        try sandbox.write(Self.start, to: sandbox.settingsPath)
        let before = try FileManager.default.attributesOfItem(atPath: sandbox.settingsPath)[.modificationDate] as? Date
        let unchanged = try sandbox.notif(["edit"], ["EDITOR": "true"])
        #expect(unchanged.status == 0 && unchanged.stdout == "\(sandbox.settingsPath) is unchanged.\n", "\(unchanged)")
        #expect(try FileManager.default.attributesOfItem(atPath: sandbox.settingsPath)[.modificationDate] as? Date == before)
        let failed = try sandbox.notif(["edit"], ["EDITOR": "sh -c 'echo \"{}\" > \"$1\"; exit 3' sh"])
        #expect(failed.status == 1 && failed.stderr.contains("exited with status 3: settings.json was not changed; your edit is kept in "), "\(failed)")
        let kept = try #require(failed.stderr.components(separatedBy: "your edit is kept in ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(sandbox.read(kept) == "{}\n" && permissions(kept) == 0o600)
        // An editor that is not there: the shell's 127, said in words (trial 40, R5).
        let missing = try sandbox.notif(["edit"], ["EDITOR": "/nonexistent/editor"])
        #expect(missing.status == 1 && missing.stderr.contains("the editor (/nonexistent/editor) exited with status 127: the shell could not find it"), "\(missing)")
        #expect(sandbox.read(sandbox.settingsPath) == Self.start)
        #expect(sandbox.read(sandbox.settingsPath) == Self.start)
        // settings.json changed by someone else while the editor ran: not overwritten.
        let raced = try sandbox.notif(["edit"], ["EDITOR": "sh -c 'sed -i s/default/bell/ \"$1\"; sed -i s/default/chime/ \"$0\"' \(sandbox.settingsPath)"])
        #expect(raced.status == 1 && raced.stderr.contains("changed meanwhile"), "\(raced)")
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"chime\"") == true)
        #expect(try sandbox.notif(["edit"], ["EDITOR": "/nonexistent/editor"]).status == 1)
        // No settings.json, copy unchanged: said so, and nothing is made.
        let none = Sandbox()
        let untouched = try none.notif(["edit"], ["EDITOR": "true"])
        #expect(untouched.status == 0 && untouched.stdout == "\(none.settingsPath) does not exist, and an unchanged edit does not make it: the defaults stay in use.\n", "\(untouched)")
        #expect(!FileManager.default.fileExists(atPath: none.settingsPath))
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"chime\"") == true)
        // A broken file left as it was: still broken, said so, exit 1, and the file kept.
        let broken = Sandbox()
        try broken.write("{\n  \"promotions\": fals\n}\n", to: broken.settingsPath)
        let still = try broken.notif(["edit"], ["EDITOR": "true"])
        #expect(still.status == 1 && still.stdout == "\(broken.settingsPath) is unchanged.\n"
                && still.stderr.contains("\(broken.settingsPath) line 2, column 17: the word fals"), "\(still)")
        #expect(broken.read(broken.settingsPath) == "{\n  \"promotions\": fals\n}\n")
    }

    /// An editor that hangs: Ctrl-C reaches it (notif waits as crontab -e does), and settings.json
    /// stays as it was; the private copy, unchanged, is removed.
    @Test func aHangingEditorIsEndedByCtrlCAndNothingChanges() throws {
        let sandbox = Sandbox()
        try sandbox.write(Self.start, to: sandbox.settingsPath)
        let started = sandbox.path + "/editor-started"
        let pane = try #require(editor(sandbox, "touch \(started); sleep 600; :"))
        // Ctrl-C once the editor runs: it is the editor's to end; notif waits, as crontab -e does.
        #expect(waitUntil(20) { FileManager.default.fileExists(atPath: started) })
        try pane.send("C-c")
        let screen = try pane.waitFor("[exit=").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("was ended by signal 2: settings.json was not changed") || screen.contains("exited with status 130"), "\(screen)")
        #expect(try pane.finished().status == 1)
        #expect(sandbox.read(sandbox.settingsPath) == Self.start)
        #expect(sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") } == ["settings.json"])
    }

    /// SIGTERM or SIGHUP to `notif edit` (not to its terminal) is handled as Ctrl-C is: passed on
    /// to the editor, which ends and is waited for (no vim left reading the terminal), the
    /// terminal as it was, settings.json untouched, the copy and vim's swap file named, exit 1.
    @Test(arguments: [SIGTERM, SIGHUP]) func aSignalToNotifEndsTheEditorAndNamesTheCopy(signal: Int32) throws {
        let sandbox = Sandbox()
        try sandbox.write(Self.start, to: sandbox.settingsPath)
        let pane = try #require(editor(sandbox, vim))
        _ = try pane.waitFor("settings.edit-")
        try pane.send(keys: ["-l", "Ounsaved typing"])
        _ = try pane.waitFor("unsaved typing")
        let editorPid = try pane.pid(of: "vim")
        kill(try pane.pid(of: "notif"), signal)
        let screen = try pane.waitFor("[exit=").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("notif: got signal \(signal) ("), "\(screen)")
        #expect(screen.contains("passed it on to the editor (\(vim)), which ended: settings.json was not changed; your edit is kept in "), "\(screen)")
        let (status, stty) = try pane.finished()
        #expect(status == 1)
        #expect(isSane(stty), "\(stty)")
        #expect(try pane.modes()["alternate_on"] == "0")
        #expect(waitUntil(10) { !isRunning(editorPid) }, "vim was left running")
        #expect(sandbox.read(sandbox.settingsPath) == Self.start)
        let left = sandbox.files(in: sandbox.configDir).filter { $0 != "settings.json" && $0.contains("settings") }
        let copy = try #require(left.first { $0.hasPrefix("settings.edit-") }, "\(left)")
        #expect(left.contains(".\(copy).swp"), "\(left)")
        for name in left { #expect(screen.contains(sandbox.configDir + "/" + name), "\(name) not named: \(screen)") }
    }

    /// A process that is gone (or a zombie waiting to be reaped by someone else).
    func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }

    /// The page on a file that does not parse: the problem in place of the settings (no
    /// onboarding); `e` opens the editor; once it reads, the page is back and schedules it.
    @Test func thePageShowsTheProblemAndEditsIt() throws {
        let sandbox = Sandbox()
        try sandbox.daemonStartsAtLogin()
        let broken = "{\n  \"permission\": \"granted\",\n  \"tipsAndUpdates\": true,\n}\n"
        try sandbox.write(broken, to: sandbox.settingsPath)
        let env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/usr/bin:/bin", "EDITOR": vim])
        let pane = try TmuxPane(notifCommand(env: env), width: 100, height: 30)
        let shown = try pane.waitFor("line 3, column 25: a comma before }")
        #expect(!shown.contains("Welcome") && shown.contains("e  edit it"), "\(shown)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.embeddedEntry), "nothing applied")
        try pane.send("e")
        _ = try pane.waitFor("settings.edit-")
        try pane.send(keys: ["-l", ":%s/true,$/true/"])
        try pane.send("Enter")
        try pane.send(keys: ["-l", ":wq"])
        try pane.send("Enter")
        _ = try pane.waitFor("Saved settings.json.")
        _ = try pane.waitForLine(containing: "Next reminder:") { $0.contains(" 09:00") }
        #expect(waitUntil(10) { FileManager.default.fileExists(atPath: self.entryPath(sandbox)) })
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect(sandbox.read(sandbox.settingsPath) == broken.replacingOccurrences(of: "true,", with: "true"))
    }

    /// `e` with an edit that changes nothing says so, not the answer to `r`.
    @Test func anEditThatChangesNothingSaysSo() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\n  \"permission\": \"granted\",\n}\n", to: sandbox.settingsPath)
        let env = sandbox.environment(["TERM": "tmux-256color", "PATH": "/usr/bin:/bin", "EDITOR": "true"])
        let pane = try TmuxPane(notifCommand(env: env), width: 100, height: 30)
        _ = try pane.waitFor("a comma before }")
        try pane.send("e")
        _ = try pane.waitFor("settings.json is unchanged.")
        // Nothing comes after it to put the answer to r in its place (2 s is more than a read takes).
        #expect(throws: (any Error).self, "the answer to r replaced it") { try pane.waitFor("Read again", seconds: 2) }
        try pane.send("q")
        // Quitting with the file still unusable is a failure (exit 1), as for every command.
        #expect(try pane.finished().status == 1)
    }

    func entryPath(_ sandbox: Sandbox) -> String { sandbox.embeddedEntry }
}

/// Output that cannot be written is an error, said on stderr, exit 1; a reader that left is not.
@Suite struct OutputErrorTests {
    @Test(arguments: [["--help"], ["--version"], ["status"], ["status", "--json"], ["history"], ["help", "set"], ["completion", "bash"],
                      ["permission", "status"], ["set", "promotions", "on"]])
    func aFullDiskIsAnError(_ args: [String]) throws {
        let sandbox = Sandbox()
        let result = try run(["sh", "-c", "exec \(shellQuote(NotifBinary.path)) \(args.map(shellQuote).joined(separator: " ")) > /dev/full"],
                             environment: sandbox.environment())
        #expect(result.status == 1, "\(args): \(result)")
        #expect(result.stderr.hasSuffix("notif: cannot write the output: No space left on device\n"), "\(args): \(result)")
    }

    /// Bad usage stays exit 2 when its message cannot be written.
    @Test func aUsageErrorStaysTwoWhenItsMessageCannotBeWritten() throws {
        let result = try run(["sh", "-c", "exec \(shellQuote(NotifBinary.path)) bogus 2> /dev/full"], environment: Sandbox().environment())
        #expect(result.status == 2, "\(result)")
    }

    /// A pipe whose reader is gone (SIGPIPE is ignored, so the write fails with EPIPE), as in
    /// `notif history | head -1`: nothing said, and no failure (the reader wanted no more).
    @Test func aClosedPipeEndsItQuietly() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: NotifBinary.path)
        process.arguments = ["--help"]
        process.environment = Sandbox().environment()
        process.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && said == "", "\(process.terminationStatus) \(said)")
    }
}
