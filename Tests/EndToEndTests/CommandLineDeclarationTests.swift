import Foundation
import Testing

/// What the declarative command line changed for users: options that were parsed but not
/// documented or not used, `notif completion`, and help for every command.
@Suite struct CommandLineDeclarationTests {
    /// `--poll-interval` given with `--install-autostart` goes into the entry (it used to be
    /// dropped); a bad one is refused before anything is written.
    @Test func theAutostartEntryCarriesAPollIntervalGivenWithIt() throws {
        let sandbox = Sandbox()
        let file = sandbox.path + "/home/.config/autostart/notif-daemon.desktop"
        let bad = try sandbox.notif(["daemon", "--install-autostart", "--poll-interval", "5"])
        #expect(bad.status == 2 && bad.stderr.contains("--poll-interval '5' is not a number of seconds (10 or more)"), "\(bad)")
        #expect(sandbox.read(file) == nil, "a refused interval wrote the entry")
        let install = try sandbox.notif(["daemon", "--poll-interval=20", "--install-autostart"])
        #expect(install.status == 0, "\(install)")
        let text = try #require(sandbox.read(file))
        #expect(text.contains(" \(NotifBinary.path) daemon --poll-interval 20\n"), "\(text)")
        // Without it, the entry has none again.
        #expect(try sandbox.notif(["daemon", "--install-autostart"]).status == 0)
        #expect(sandbox.read(file)?.contains(" daemon\n") == true)
        let remove = try sandbox.notif(["daemon", "--remove-autostart", "--poll-interval", "20"])
        #expect(remove.status == 2 && remove.stderr.contains("--remove-autostart and --poll-interval cannot be used together"), "\(remove)")
        #expect(sandbox.read(file) != nil, "a refused command removed the entry")
    }

    @Test(arguments: ["onboarding", "status", "set", "permission", "apply", "deliver", "history", "test", "daemon", "reset", "account", "completion", "help"])
    func everyCommandHasHelpNamingEachOption(command: String) throws {
        let help = try Sandbox().notif([command, "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: notif \(command)"), "\(help)")
        let options: [String: [String]] = ["status": ["--json"], "deliver": ["--catch-up", "--quiet"], "history": ["-n, --limit COUNT", "--json"],
                                           "daemon": ["--poll-interval SECONDS", "--install-autostart", "--remove-autostart", "NOTIF_POLL_INTERVAL"],
                                           "reset": ["--entries"], "account": ["--server URL"]]
        for option in options[command] ?? [] { #expect(help.stdout.contains(option), "\(command): \(option)\n\(help.stdout)") }
    }

    @Test func completionPrintsAScriptForEachShellAndNothingElseForOthers() throws {
        let sandbox = Sandbox()
        for (shell, start) in [("bash", "# bash completion for notif"), ("zsh", "#compdef notif\n"), ("fish", "# fish completion for notif")] {
            let result = try sandbox.notif(["completion", shell])
            #expect(result.status == 0 && result.stdout.hasPrefix(start) && result.stderr.isEmpty, "\(shell): \(result.stderr)")
        }
        let bad = try sandbox.notif(["completion", "tcsh"])
        #expect(bad.status == 2 && bad.stdout.isEmpty && bad.stderr.contains("unknown shell 'tcsh'; use bash, zsh or fish"), "\(bad)")
        #expect(sandbox.files(in: sandbox.configDir).isEmpty, "completion wrote settings")
    }
}
