import Foundation
import Testing
@testable import CommandLineInterface
import SharedLogic

/// The completion scripts in the real shells: bash (with and without the bash-completion
/// package loaded) and fish complete the command line as the declaration says; zsh's parses
/// and offers the same words through its completion functions.
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
        ("notif status --", ["--json", "--scheduler", "--help", "--version"]),
        ("notif account ", ["login", "logout", "status"]),
        ("notif account login --s", ["--server", "--scheduler"]),
        ("notif daemon --", ["--poll-interval", "--install-autostart", "--remove-autostart", "--scheduler", "--help", "--version"]),
        ("notif deliver ", LocalReminders.all.map(\.id)),
        ("notif completion ", ["bash", "zsh", "fish"]),
        ("notif help a", ["apply", "account"]),
        ("notif e", ["edit"]),
        ("notif edit --", ["--scheduler", "--help", "--version"]),
        ("notif set sound bell ", []),
    ]

    /// Completes `line` in bash the way readline would: COMP_WORDS split as bash splits them
    /// (at spaces and at `=`), then the function `complete -p notif` names.
    static func bash(_ line: String, script: String, withPackage: Bool) throws -> [String] {
        let file = try temporaryFile(script)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let program = """
            set -u
            \(withPackage ? "source \(bashCompletionPackage)" : "")
            source \(file)
            spec=$(complete -p notif) || exit 3
            function=${spec#*-F }; function=${function%% *}
            COMP_LINE=$1
            COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "${COMP_LINE//=/ = }"
            [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            "$function" notif "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProgram(["bash", "--norc", "--noprofile", "-c", program, "bash", line])
        guard result.status == 0, result.stderr.isEmpty else { throw CompletionFailure("bash: \(result)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: installed("bash") && FileManager.default.fileExists(atPath: bashCompletionPackage), "needs bash and bash-completion"))
    func bashCompletesCommandsSettingsAndValues() throws {
        let script = Self.declaration.bashCompletion
        for withPackage in [true, false] {
            for (line, expected) in Self.cases {
                let offered = try Self.bash(line, script: script, withPackage: withPackage)
                #expect(offered.sorted() == expected.sorted(), "\(withPackage ? "with" : "without") bash-completion, '\(line)': \(offered)")
            }
        }
    }

    @Test(.enabled(if: installed("bash"), "needs bash"))
    func bashReadsTheScriptWithoutComplaint() throws {
        let file = try temporaryFile(Self.declaration.bashCompletion)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try runProgram(["bash", "--norc", "-n", file])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(.enabled(if: installed("fish"), "needs fish"))
    func fishCompletesCommandsSettingsAndValues() throws {
        let file = try temporaryFile(Self.declaration.fishCompletion, suffix: ".fish")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let syntax = try runProgram(["fish", "--no-config", "-n", file])
        #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax)")
        for (line, expected) in Self.cases where !line.contains("=") {
            let result = try runProgram(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", file, line],
                                        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(line): \(result)")
            let offered = result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            // fish offers short spellings too (`-h`) when a word is just `-`; compare the words asked for.
            let wanted = Set(expected)
            #expect(Set(offered.filter { !$0.hasPrefix("-") || $0.hasPrefix("--") }) == wanted, "fish, '\(line)': \(offered)")
        }
    }

    /// zsh reads the script; with its completion builtins stood in for by functions that print
    /// what they are given, `_notif` offers the same words as bash.
    @Test(.enabled(if: installed("zsh"), "needs zsh"))
    func zshReadsTheScriptAndOffersTheSameWords() throws {
        let file = try temporaryFile(Self.declaration.zshCompletion)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let syntax = try runProgram(["zsh", "-n", file])
        #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax)")
        for (line, expected) in Self.cases where !line.contains("=") {
            let program = """
                compdef() { : }
                compset() { : }
                _message() { : }
                compadd() { [[ $1 == -- ]] && shift; print -l -- "$@" }
                _describe() { local name; for name in ${(P)4}; do print -- ${name%%:*}; done }
                source $1
                words=(${(z)2})
                [[ $2 == *' ' ]] && words+=('')
                CURRENT=${#words}
                _notif
                """
            let result = try runProgram(["zsh", "-f", "-c", program, "zsh", file, line])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(line): \(result)")
            let cur = line.hasSuffix(" ") ? "" : String(line.split(separator: " ").last ?? "")
            let offered = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(cur) }
            #expect(offered.sorted() == expected.sorted(), "zsh, '\(line)': \(offered)")
        }
    }
}

struct CompletionFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
