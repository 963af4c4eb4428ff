import Testing
@testable import CommandLineInterface
import SharedLogic

/// Parses like `notif ARGS` with the environment given.
func parse(_ argv: [String], _ environment: [String: String] = [:]) throws(UsageError) -> ParsedCommand {
    let declaration = NotifCommandLine.declaration
    let invocation = try declaration.invocation(argv, environment: { environment[$0] })
    return try declaration.parse(invocation, environment: { environment[$0] })
}

/// The usage error `notif ARGS` gives, or nil.
func usageError(_ argv: [String], _ environment: [String: String] = [:]) -> UsageError? {
    do {
        _ = try parse(argv, environment)
        return nil
    } catch {
        return error
    }
}

@Suite struct GlobalOptionTests {
    @Test func globalOptionsStandAnywhereBeforeTheEndOfOptions() throws {
        let declaration = NotifCommandLine.declaration
        for argv in [["--scheduler", "cron", "status"], ["status", "--scheduler=cron"], ["status", "--scheduler", "cron", "--json"]] {
            let invocation = try declaration.invocation(argv, environment: { _ in nil })
            #expect(invocation.command == "status" && invocation.globals["--scheduler"]?.text == "cron", "\(argv)")
        }
        let help = try declaration.invocation(["set", "a", "-h"], environment: { _ in nil })
        #expect(help.help && help.command == "set" && help.words == ["a"])
        let version = try declaration.invocation(["-V"], environment: { _ in nil })
        #expect(version.version && version.command == nil)
        let ended = try declaration.invocation(["status", "--", "--json"], environment: { _ in nil })
        #expect(ended.words == ["--json"] && ended.literalFrom == 0)
    }

    @Test func theEnvironmentGivesTheSchedulerWhenTheOptionDoesNot() throws {
        let declaration = NotifCommandLine.declaration
        let fromEnvironment = try declaration.invocation(["status"], environment: { $0 == "NOTIF_SCHEDULER" ? "embedded" : nil })
        #expect(fromEnvironment.globals["--scheduler"] == GivenValue("embedded", from: "NOTIF_SCHEDULER"))
        let optionWins = try declaration.invocation(["--scheduler", "cron"], environment: { $0 == "NOTIF_SCHEDULER" ? "at" : nil })
        #expect(optionWins.globals["--scheduler"]?.text == "cron")
    }

    @Test(arguments: [
        (["--scheduler", "anacron", "status"], [String: String](), "--scheduler 'anacron' is not a scheduler; use systemd, cron or embedded"),
        (["--scheduler=auto"], [:], "--scheduler names a scheduler for one run: systemd, cron or embedded; `notif set scheduler auto` lets notif pick"),
        (["--scheduler"], [:], "--scheduler needs a value: systemd, cron or embedded"),
        (["status"], ["NOTIF_SCHEDULER": "at"], "NOTIF_SCHEDULER 'at' is not a scheduler; use systemd, cron or embedded"),
        (["--bogus", "status"], [:], "unknown option '--bogus'"),
        (["--schedular", "cron", "status"], [:], "unknown option '--schedular'; did you mean --scheduler?"),
        (["--scheduler", "cronn", "status"], [:], "--scheduler 'cronn' is not a scheduler; did you mean cron?"),
    ])
    func badGlobalOptionsNameTheValue(argv: [String], environment: [String: String], message: String) {
        let error = usageError(argv, environment)
        #expect(error == UsageError(message: message, command: nil), "\(argv)")
    }
}

@Suite struct CommandParsingTests {
    /// The parser returns a command's action: each command has one, or sub-commands that each have one.
    @Test func everyCommandRunsAnAction() {
        func leaves(_ command: CommandDeclaration) -> [CommandDeclaration] {
            command.subcommands.isEmpty ? [command] : command.subcommands.flatMap(leaves)
        }
        for command in NotifCommandLine.declaration.commands {
            #expect((command.action == nil) == !command.subcommands.isEmpty, "\(command.name)")
            for leaf in leaves(command) { #expect(leaf.action != nil, "\(command.name) \(leaf.name)") }
        }
    }

    @Test func eachCommandGivesItsOptionsAndArguments() throws {
        #expect(try parse(["status", "--json"]) == ParsedCommand(.status, path: ["status"], options: ["--json": GivenValue("", from: "--json")]))
        #expect(try parse(["account", "status"]).action == .accountStatus && parse(["account", "login", "--server", "u"]).action == .accountLogin)
        #expect(try parse(["set", "sound", "bell"]).arguments == ["sound", "bell"])
        #expect(try parse(["permission", "grant"]).arguments == ["grant"])
        let deliver = try parse(["deliver", "--quiet", "tips-and-updates", "--catch-up"])
        #expect(deliver.flag("--quiet") && deliver.flag("--catch-up") && deliver.arguments == ["tips-and-updates"])
        for argv in [["history", "-n5"], ["history", "-n", "5"], ["history", "--limit", "5"], ["history", "--limit=5"]] {
            #expect(try parse(argv).number("--limit") == 5, "\(argv)")
        }
        #expect(try parse(["history", "-n", "3"]).value("--limit")?.source == "-n")
        let login = try parse(["account", "login", "--server=https://example.org"])
        #expect(login.path == ["account", "login"] && login.value("--server")?.text == "https://example.org")
        #expect(try parse(["account", "status"]).path == ["account", "status"])
        #expect(try parse(["reset", "--entries"]).flag("--entries"))
        #expect(try parse(["completion", "fish"]).arguments == ["fish"])
        #expect(try parse(["help"]).arguments.isEmpty)
        #expect(try parse(["help", "set"]).arguments == ["set"])
        let waiter = try parse([NotifCommandLine.reminderActionsCommand, "tips-and-updates", "--show-within", "250", "--wait-at-most", "1.5"])
        #expect(waiter.decimal("--show-within") == 250 && waiter.decimal("--wait-at-most") == 1.5)
    }

    @Test func everySettingAndEachOfItsValuesParses() throws {
        for setting in Setting.all {
            for value in setting.values {
                #expect(try parse(["set", setting.name, value]).arguments == [setting.name, value])
            }
        }
    }

    @Test func thePollIntervalIsLeftToTheDaemonAndComesFromTheEnvironmentToo() throws {
        // Checked by the command (it applies to Account projects only): a bad one parses.
        #expect(try parse(["daemon", "--poll-interval", "abc"]).value("--poll-interval") == GivenValue("abc", from: "--poll-interval"))
        #expect(try parse(["daemon"], ["NOTIF_POLL_INTERVAL": "60"]).value("--poll-interval") == GivenValue("60", from: "NOTIF_POLL_INTERVAL"))
        #expect(try parse(["daemon", "--poll-interval=20", "--install-autostart"]).flag("--install-autostart"))
    }

    @Test(arguments: [
        (["bogus"], "unknown command 'bogus'", nil),
        (["sett"], "unknown command 'sett'; did you mean set?", nil),
        (["stat"], "unknown command 'stat'; did you mean status?", nil),
        (["set", "tips", "on"], "unknown setting 'tips'; did you mean tips-and-updates?", "set"),
        (["set", "Sound", "bell"], "unknown setting 'Sound'; did you mean sound?", "set"),
        (["set", "tips-and-updates", "of"], "'of' is not a value for tips-and-updates; did you mean off?", "set"),
        (["set", "sound", "chmie"], "'chmie' is not a value for sound; did you mean chime?", "set"),
        (["permission", "alow"], "unknown permission action 'alow'; did you mean allow?", "permission"),
        (["status", "--jsno"], "unknown option '--jsno' for status; did you mean --json?", "status"),
        (["history", "--limt", "3"], "unknown option '--limt' for history; did you mean --limit?", "history"),
        (["account", "logn"], "unknown account action 'logn'; did you mean login?", "account"),
        (["completion", "fihs"], "unknown shell 'fihs'; did you mean fish?", "completion"),
        (["set"], "set needs a SETTING and a VALUE", "set"),
        (["set", "tips-and-updates"], "set needs a VALUE", "set"),
        (["set", "nope", "on"], "unknown setting 'nope'; use push-notifications, tips-and-updates, queue-alerts, promotions, sound, vibration or scheduler", "set"),
        (["set", "tips-and-updates", "maybe"], "'maybe' is not a value for tips-and-updates; use on or off", "set"),
        (["set", "scheduler", "anacron"], "'anacron' is not a value for scheduler; use auto, systemd, cron or embedded", "set"),
        (["set", "a", "b", "c"], "unexpected argument 'c' for set", "set"),
        (["permission"], "permission needs one of allow, deny, reset or status", "permission"),
        (["permission", "maybe"], "unknown permission action 'maybe'; use allow, deny, reset or status", "permission"),
        (["deliver"], "deliver needs a reminder ID", "deliver"),
        (["deliver", "nope"], "unknown reminder 'nope'; use tips-and-updates", "deliver"),
        (["deliver", "--now", "tips-and-updates"], "unknown option '--now' for deliver", "deliver"),
        (["status", "--xml"], "unknown option '--xml' for status", "status"),
        (["status", "--json=yes"], "unknown option '--json=yes' for status", "status"),
        (["status", "--", "--json"], "unexpected argument '--json' for status", "status"),
        (["apply", "x"], "unexpected argument 'x' for apply", "apply"),
        (["edit", "settings.json"], "unexpected argument 'settings.json' for edit", "edit"),
        (["test", "x"], "unexpected argument 'x' for test", "test"),
        (["onboarding", "x"], "unexpected argument 'x' for onboarding", "onboarding"),
        (["history", "-n", "0"], "-n needs a number of 1 or more, not 0", "history"),
        (["history", "-n"], "-n needs a number", "history"),
        (["history", "--limit=ten"], "--limit needs a whole number, not 'ten'", "history"),
        (["history", "-n99999999999999999999"], "-n 99999999999999999999 is too large (at most 9223372036854775807)", "history"),
        (["daemon", "now"], "unexpected argument 'now' for daemon", "daemon"),
        (["daemon", "--install-autostart", "--remove-autostart"], "--install-autostart and --remove-autostart cannot be used together", "daemon"),
        (["daemon", "--remove-autostart", "--poll-interval", "20"], "--remove-autostart and --poll-interval cannot be used together", "daemon"),
        (["reset"], "reset needs --entries", "reset"),
        (["reset", "--all"], "unknown option '--all' for reset", "reset"),
        (["account"], "account needs login, logout or status", "account"),
        (["account", "join"], "unknown account action 'join'; use login, logout or status", "account"),
        (["account", "login"], "account login needs --server URL", "account"),
        (["account", "login", "--server"], "--server needs a URL", "account"),
        (["account", "logout", "now"], "unexpected argument 'now' for account logout", "account"),
        (["completion"], "completion needs one of bash, zsh or fish", "completion"),
        (["completion", "tcsh"], "unknown shell 'tcsh'; use bash, zsh or fish", "completion"),
        (["help", "a", "b"], "unexpected argument 'b' for help", "help"),
        (["__reminder-actions", "tips-and-updates", "--show-within", "-1"], "--show-within needs a positive number, not '-1'", nil),
    ] as [([String], String, String?)])
    func badUsageNamesTheWordAtFaultAndTheCommand(argv: [String], message: String, command: String?) {
        #expect(usageError(argv) == UsageError(message: message, command: command), "\(argv)")
    }
}
