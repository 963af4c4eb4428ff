import Foundation
import Testing
@testable import CommandLineInterface
import SharedLogic

/// Completion offers what the declaration says: the resolver (`CompletionOffers`) for every
/// command, option and argument, and the scripts in the real shells, which ask the built notif:
/// bash (with and without the bash-completion package loaded) and fish complete the command
/// line as the declaration says; zsh's parses and offers the same words through its completion
/// functions.
@Suite struct CompletionTests {
    static let declaration = NotifCommandLine.declaration
    static let bashCompletionPackage = "/usr/share/bash-completion/bash_completion"
    static let settingNames = Setting.all.map(\.name)

    /// (line typed so far, the words completion must offer for its last word)
    static let cases: [(String, [String])] = [
        ("notif se", ["set"]),
        ("notif set ", settingNames),
        ("notif set t", ["tips-and-updates"]),
        ("notif set sound ", NotificationSound.allCases.map(\.rawValue)),
        ("notif set tips-and-updates o", ["off", "on"]),
        ("notif set scheduler ", SchedulerPreference.allCases.map(\.rawValue)),
        ("notif --scheduler ", ["systemd", "cron", "embedded"]),
        ("notif --scheduler cron se", ["set"]),
        ("notif --scheduler=c", ["cron"]),
        ("notif permission ", ["allow", "deny", "reset", "status"]),
        ("notif history --l", ["--limit"]),
        ("notif history -n 5 --j", ["--json"]),
        ("notif status --", ["--json", "--scheduler", "--help"]),
        ("notif history -", ["-n", "--limit", "--json", "--scheduler", "-h", "--help"]),
        ("notif reset ", ["--entries"]),
        ("notif account login ", ["--server"]),
        ("notif account ", ["login", "logout", "status"]),
        ("notif account login --s", ["--server", "--scheduler"]),
        ("notif daemon --", ["--poll-interval", "--install-autostart", "--remove-autostart", "--scheduler", "--help"]),
        ("notif deliver ", LocalReminders.all.map(\.id)),
        ("notif completion ", ["bash", "zsh", "fish"]),
        ("notif help a", ["apply", "account"]),
        ("notif e", ["edit"]),
        ("notif edit --", ["--scheduler", "--help"]),
        ("notif set sound bell ", []),
        ("notif --version ", []),
        ("notif -V --", []),
        ("notif -h s", ["set", "status"]),
    ]

    /// Every option and argument the declaration has, walked from it (not from the scripts):
    /// for each command, the line typed so far and the words completion must offer: its
    /// options after `-`, each option's values, each argument's words after good earlier
    /// ones, and the command's own options where no argument is wanted (`notif reset `).
    static func walk(_ declaration: CommandLineDeclaration) -> [(String, [String])] {
        // `--version` goes alone (the parser refuses it after a command): offered before one only.
        let globals = CommandLineDeclaration.spellings(declaration.globalOptions.filter { $0.long != "--version" })
        var cases: [(String, [String])] = [("notif -", CommandLineDeclaration.spellings(declaration.globalOptions)),
                                           ("notif ", declaration.visibleCommands.map(\.name))]
        func values(_ options: [OptionDeclaration], after path: String) {
            for option in options {
                guard let value = option.value else { continue }
                for spelling in CommandLineDeclaration.spellings([option]) { cases.append(("notif \(path)\(spelling) ", value.kind.offered)) }
            }
        }
        values(declaration.globalOptions, after: "")
        func walk(_ command: CommandDeclaration, path: String) {
            guard command.subcommands.isEmpty else {
                cases += [("notif \(path) ", command.subcommands.map(\.name)), ("notif \(path) -", globals)]
                for sub in command.subcommands { walk(sub, path: path + " " + sub.name) }
                return
            }
            let own = CommandLineDeclaration.spellings(command.options)
            cases.append(("notif \(path) -", own + globals))
            values(command.options, after: path + " ")
            // Earlier words, with the choice the last one was (for `set SETTING VALUE`).
            var typed: [([String], Choice?)] = [([], nil)]
            for argument in command.arguments {
                var longer: [([String], Choice?)] = []
                for (earlier, last) in typed {
                    var choices: [Choice] = []
                    switch argument.kind {
                    case .choice(let all): choices = all.filter { !$0.hidden && $0.refusal == nil }
                    case .followingChoice: choices = (last?.next ?? []).map { Choice($0) }
                    case .commandName: choices = declaration.visibleCommands.map { Choice($0.name) }
                    default: break
                    }
                    cases.append(("notif \(path) " + (earlier + [""]).joined(separator: " "), choices.isEmpty ? own : choices.map(\.word)))
                    longer += choices.map { (earlier + [$0.word], $0) }
                }
                typed = longer
            }
            for (earlier, _) in typed { cases.append(("notif \(path) " + (earlier + [""]).joined(separator: " "), own)) }
        }
        for command in declaration.visibleCommands { walk(command, path: command.name) }
        return cases
    }

    static let end = "<end of offer>"

    /// The words bash offers for each line, completed the way readline would: COMP_WORDS split
    /// as bash splits them (at spaces and at `=`), then the function `complete -p notif` names.
    /// One bash for all the lines.
    static func bash(_ lines: [String], script: String, withPackage: Bool) throws -> [[String]] {
        let file = try temporaryFile(script)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let program = """
            set -u
            \(withPackage ? "source \(bashCompletionPackage)" : "")
            source \(file)
            spec=$(complete -p notif) || exit 3
            function=${spec#*-F }; function=${function%% *}
            while IFS= read -r COMP_LINE; do
                COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "${COMP_LINE//=/ = }"
                [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMPREPLY=()
                "$function" notif "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                ((${#COMPREPLY[@]})) && printf '%s\\n' "${COMPREPLY[@]}"
                echo '\(end)'
            done
            """
        let result = try runProgram(["bash", "--norc", "--noprofile", "-c", program], input: lines.joined(separator: "\n") + "\n",
                                    environment: ["PATH": shellPath, "LANG": "C.UTF-8"])
        guard result.status == 0, result.stderr.isEmpty else { throw CompletionFailure("bash: \(result)") }
        return offers(result.stdout, lines: lines)
    }

    /// The words zsh's function offers for each line, with zsh's completion builtins stood in for
    /// by functions that print what they are given (compadd does the matching in zsh, so the
    /// words are matched against the last word here). One zsh for all the lines.
    static func zsh(_ lines: [String], script: String) throws -> [[String]] {
        let file = try temporaryFile(script)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let program = """
            compdef() { : }
            compset() { : }
            _message() { : }
            compadd() { [[ $1 == -- ]] && shift; print -l -- "$@" }
            _describe() { local name; for name in ${(P)4}; do print -- ${name%%:*}; done }
            source $1
            while IFS= read -r line; do
                words=(${(z)line})
                [[ $line == *' ' ]] && words+=('')
                CURRENT=${#words}
                _notif
                print -- '\(end)'
            done
            """
        let result = try runProgram(["zsh", "-f", "-c", program, "zsh", file], input: lines.joined(separator: "\n") + "\n",
                                    environment: ["PATH": shellPath, "LANG": "C.UTF-8"])
        guard result.status == 0, result.stderr.isEmpty else { throw CompletionFailure("zsh: \(result)") }
        return zip(lines, offers(result.stdout, lines: lines)).map { line, words in
            let cur = line.hasSuffix(" ") ? "" : String(line.split(separator: " ").last ?? "")
            return words.filter { $0.hasPrefix(cur) }
        }
    }

    /// The words fish offers for each line (`complete -C`), descriptions left off. One fish for all.
    static func fish(_ lines: [String], script: String) throws -> [[String]] {
        let file = try temporaryFile(script, suffix: ".fish")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let syntax = try runProgram(["fish", "--no-config", "-n", file])
        guard syntax.status == 0, syntax.stderr.isEmpty else { throw CompletionFailure("fish -n: \(syntax)") }
        let result = try runProgram(["fish", "--no-config", "-c", "source $argv[1]; for line in $argv[2..-1]; complete -C $line; echo '\(end)'; end", file] + lines,
                                    environment: ["PATH": shellPath, "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()])
        guard result.status == 0, result.stderr.isEmpty else { throw CompletionFailure("fish: \(result)") }
        return offers(result.stdout, lines: lines).map { $0.map { String($0.prefix { $0 != "\t" }) } }
    }

    /// A shell's output split into the offers for each line.
    static func offers(_ output: String, lines: [String]) -> [[String]] {
        var offers: [[String]] = [[]]
        for word in output.split(separator: "\n").map(String.init) {
            if word == end { offers.append([]) } else { offers[offers.count - 1].append(word) }
        }
        offers.removeLast()
        precondition(offers.count == lines.count, "a shell answered \(offers.count) lines of \(lines.count)")
        return offers
    }

    /// Each line's offer compared with what it should be; every difference named.
    static func compare(_ shell: String, _ cases: [(String, [String])], _ offered: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
        for ((line, expected), words) in zip(cases, offered) {
            #expect(words.sorted() == expected.sorted(), "\(shell), '\(line)': offered \(words), not \(expected)", sourceLocation: sourceLocation)
        }
    }

    /// The resolver alone, for every line: what bash gets (the words that start as typed).
    @Test func theResolverOffersWhatTheDeclarationSays() {
        let cases = Self.cases + Self.walk(Self.declaration)
        Self.compare("resolver", cases, cases.map { Self.declaration.completions(line: $0.0).lines(for: "bash") })
    }

    /// zsh and fish get every word with its summary, and an option's value given with `=` whole.
    @Test func zshAndFishGetSummariesAndWholeWords() {
        #expect(Self.declaration.completions(line: "notif se").lines(for: "zsh").contains { $0.hasPrefix("set:") })
        #expect(Self.declaration.completions(line: "notif set ").lines(for: "fish").contains("tips-and-updates\tTips & Updates"))
        #expect(Self.declaration.completions(line: "notif --scheduler=c").lines(for: "zsh") == ["--scheduler=systemd", "--scheduler=cron", "--scheduler=embedded"])
        #expect(Self.declaration.completions(line: "notif --scheduler=c").lines(for: "bash") == ["cron"])
        // Nothing after `--json=` (it takes no value), after a command notif does not have, or for an argument of any text.
        #expect(Self.declaration.completions(line: "notif status --json=").lines(for: "bash").isEmpty)
        #expect(Self.declaration.completions(line: "notif bogus ").lines(for: "bash").isEmpty)
        #expect(Self.declaration.completions(line: "notif account login --server ").lines(for: "bash").isEmpty)
        // An option given already, or one that cannot go with one given, is not offered again;
        // options come with what they do.
        #expect(Self.declaration.completions(line: "notif reset --entries ").lines(for: "bash").isEmpty)
        #expect(!Self.declaration.completions(line: "notif history --json --").lines(for: "bash").contains("--json"))
        #expect(!Self.declaration.completions(line: "notif daemon --install-autostart --").lines(for: "bash").contains("--remove-autostart"))
        #expect(Self.declaration.completions(line: "notif status --j").lines(for: "zsh").contains { $0.hasPrefix("--json:") })
        // fish gets only the words that start as typed (it would match their meanings too).
        #expect(Self.declaration.completions(line: "notif x").lines(for: "fish").isEmpty)
        // A quote opened (or closed) around a word does not hide it.
        #expect(Self.declaration.completions(line: "notif set \"so").lines(for: "bash") == ["sound"])
        #expect(Self.declaration.completions(line: "notif set 'sound' ").lines(for: "bash") == NotificationSound.allCases.map(\.rawValue))
        // After `--`, words are arguments, never options.
        #expect(Self.declaration.completions(line: "notif deliver -- ").lines(for: "bash") == LocalReminders.all.map(\.id))
    }

    @Test func theWalkReachesEveryCommandOptionAndArgument() {
        let lines = Self.walk(Self.declaration).map(\.0)
        #expect(lines.contains("notif reset ") && lines.contains("notif account login ") && lines.contains("notif history -n "))
        #expect(lines.contains("notif set sound ") && lines.contains("notif --scheduler ") && lines.contains("notif help "))
    }

    @Test(.enabled(if: installed("bash") && FileManager.default.fileExists(atPath: bashCompletionPackage), "needs bash and bash-completion"))
    func bashCompletesCommandsSettingsAndValues() throws {
        let script = Self.declaration.completionScript(for: "bash")
        for withPackage in [true, false] {
            let cases = Self.cases + Self.walk(Self.declaration)
            Self.compare(withPackage ? "bash with bash-completion" : "bash", cases, try Self.bash(cases.map(\.0), script: script, withPackage: withPackage))
        }
    }

    @Test(.enabled(if: installed("bash"), "needs bash"))
    func bashReadsTheScriptWithoutComplaint() throws {
        let file = try temporaryFile(Self.declaration.completionScript(for: "bash"))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try runProgram(["bash", "--norc", "-n", file])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(.enabled(if: installed("fish"), "needs fish"))
    func fishCompletesCommandsSettingsAndValues() throws {
        let cases = (Self.cases + Self.walk(Self.declaration)).filter { !$0.0.contains("=") }
        Self.compare("fish", cases, try Self.fish(cases.map(\.0), script: Self.declaration.completionScript(for: "fish")))
    }

    /// zsh reads the script, and `_notif` offers the same words as bash.
    @Test(.enabled(if: installed("zsh"), "needs zsh"))
    func zshReadsTheScriptAndOffersTheSameWords() throws {
        let file = try temporaryFile(Self.declaration.completionScript(for: "zsh"))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let syntax = try runProgram(["zsh", "-n", file])
        #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax)")
        let cases = (Self.cases + Self.walk(Self.declaration)).filter { !$0.0.contains("=") }
        Self.compare("zsh", cases, try Self.zsh(cases.map(\.0), script: Self.declaration.completionScript(for: "zsh")))
    }
}

struct CompletionFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
