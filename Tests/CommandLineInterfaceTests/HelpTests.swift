import Testing
@testable import CommandLineInterface
import SharedLogic
import TestSupport

@Suite struct HelpTests {
    let declaration = NotifCommandLine.declaration

    @Test func everyVisibleCommandHasUsageAndHelpAndTheHiddenOnesNeither() {
        for command in declaration.visibleCommands {
            let help = declaration.help(command)
            #expect(help.hasPrefix("Usage: notif \(command.name)"), "\(help)")
            #expect(declaration.overview.contains("\n  " + command.name), "\(command.name) is not in the overview")
        }
        // The two notif runs itself: the reminder's waiter, and what the completion scripts ask.
        for hidden in [NotifCommandLine.reminderActionsCommand, CommandLineDeclaration.completeCommand] {
            #expect(!declaration.overview.contains(hidden) && declaration.command(hidden)?.hidden == true)
        }
        #expect(declaration.visibleCommands.count == declaration.commands.count - 2)
    }

    @Test func usageLinesComeFromTheOptionsAndArguments() {
        let usages = Dictionary(uniqueKeysWithValues: declaration.visibleCommands.map { ($0.name, declaration.usage($0)) })
        #expect(usages["status"] == "notif status [--json]")
        #expect(usages["set"] == "notif set SETTING VALUE")
        #expect(usages["permission"] == "notif permission allow|deny|reset|status")
        #expect(usages["deliver"] == "notif deliver [--catch-up] [--quiet] ID")
        #expect(usages["history"] == "notif history [-n COUNT] [--json]")
        #expect(usages["daemon"] == "notif daemon [--poll-interval SECONDS] [--install-autostart|--remove-autostart]")
        #expect(usages["reset"] == "notif reset --entries")
        #expect(usages["account"] == "notif account login --server URL | logout | status")
        #expect(usages["completion"] == "notif completion bash|zsh|fish")
        #expect(usages["help"] == "notif help [COMMAND]")
        #expect(declaration.usage == "notif [--scheduler systemd|cron|embedded] [COMMAND [ARGS]]")
    }

    /// Every option of every command is in its help, with its environment variable; the
    /// setting names and values come from `Setting.all`.
    @Test func helpListsEveryOptionAndEverySetting() {
        for command in declaration.visibleCommands {
            let help = declaration.help(command)
            for option in command.options + command.subcommands.flatMap(\.options) {
                #expect(help.contains("  " + option.tableForm), "\(command.name): \(option.long) missing from\n\(help)")
                if let variable = option.environment { #expect(help.contains(variable)) }
            }
        }
        let history = declaration.help(declaration.command("history")!)
        #expect(history.contains("-n, --limit COUNT"))
        let set = declaration.help(declaration.command("set")!)
        for setting in Setting.all {
            #expect(set.contains("  " + Wording.padded(setting.name, to: 20) + Wording.list(setting.values)), "\(setting.name)")
        }
        let permission = declaration.help(declaration.command("permission")!)
        #expect(permission.contains("  deny ") && !permission.contains("  grant "))
    }

    /// Every help text, the overview too, usage lines included, is wrapped within 79 columns
    /// (one short of an 80-column terminal, so no terminal wraps it again).
    @Test func everyHelpTextFitsAnEightyColumnTerminal() {
        let texts = [("--help", declaration.overview)] + declaration.visibleCommands.map { ($0.name, declaration.help($0)) }
        for (name, text) in texts {
            for line in text.split(separator: "\n") {
                #expect(line.count <= 79, "\(name): \(line.count) columns: \(line)")
            }
        }
        #expect(CommandLineDeclaration.usageLines("notif daemon [--poll-interval SECONDS] [--install-autostart|--remove-autostart]", width: 50)
                == "Usage: notif daemon [--poll-interval SECONDS]\n                    [--install-autostart|--remove-autostart]")
    }

    /// A list of values reads the same in help, errors and the man page: "a, b or c"; `|`
    /// stays in usage lines, the synopsis.
    @Test func valueListsHaveOneWording() {
        let sound = Setting.all.first { $0.name == "sound" }!.values
        #expect(declaration.help(declaration.command("set")!).contains("  sound               " + Wording.list(sound)))
        #expect(usageError(["set", "sound", "loud"])?.message == "'loud' is not a value for sound; use " + Wording.list(sound))
        #expect(declaration.manPage.contains(Wording.list(sound.map { "\\fB\($0)\\fR" })))
        for (name, text) in [("--help", declaration.overview)] + declaration.visibleCommands.map({ ($0.name, declaration.help($0)) }) {
            // After the usage lines (the first paragraph of a command's help).
            let words = name == "--help" ? text : String(text.split(separator: "\n\n", maxSplits: 1).last ?? "")
            for line in words.split(separator: "\n") where !line.hasPrefix("Usage:") {
                #expect(!line.contains("|"), "\(name): \(line)")
            }
        }
    }

    @Test func wrappingKeepsWordsWholeAndTablesAligned() {
        #expect(Wording.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
        #expect(Wording.wrap("abcdefghij k", width: 5) == ["abcdefghij", "k"])
        #expect(Wording.table([("-a", "one two three four five six"), ("--bb", "x")], width: 16) == "  -a    one two three four\n        five six\n  --bb  x")
        #expect(Wording.list(["a", "b", "c"]) == "a, b or c" && Wording.list(["a"]) == "a")
    }
}

/// What the command line says keeps its parentheses flat and closed: every help text, the
/// man page, and the error for each kind of bad usage of each command.
@Suite struct ParenthesesInMessagesTests {
    @Test func helpAndUsageErrorsKeepParenthesesFlatAndClosed() {
        let declaration = NotifCommandLine.declaration
        var texts = [declaration.overview, declaration.manPage] + declaration.visibleCommands.map { declaration.help($0) }
        var argvs: [[String]] = [["bogus"], ["sett"], ["--bogus"], ["--scheduler", "bogus"], ["--scheduler=auto"], ["--scheduler"], ["help", "bogus"]]
        for command in declaration.commands {
            let paths = [[command.name]] + command.subcommands.map { [command.name, $0.name] }
            for path in paths {
                argvs += [path, path + ["--bogus"], path + ["bogus"], path + ["bogus", "bogus"], path + ["a", "b", "c", "d"]]
                let declared = path.count > 1 ? command.subcommand(path[1])! : command
                if case .choice(let choices)? = declared.arguments.first?.kind, let choice = choices.first {
                    argvs.append(path + [choice.word, "bogus"])
                }
                for option in declared.options where option.value != nil {
                    argvs += [path + [option.long], path + [option.long, "-1"], path + [option.long, "zzz"], path + [option.long + "=99999999999999999999"]]
                }
                for group in declared.exclusive { argvs.append(path + group.flatMap { declared.option($0)?.value == nil ? [$0] : [$0, "20"] }) }
            }
        }
        texts += argvs.compactMap { usageError($0)?.message }
        #expect(texts.count > 100)
        for text in texts {
            #expect(Parentheses.problem(in: text) == nil)
        }
    }
}
