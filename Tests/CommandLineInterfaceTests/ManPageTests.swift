import Foundation
import Testing
@testable import CommandLineInterface

@Suite struct ManPageTests {
    let declaration = NotifCommandLine.declaration

    /// doc/notif.1 is what the declaration makes: `make man` writes it again after a change.
    @Test func theCheckedInPageIsUpToDate() throws {
        let checkedIn = try String(contentsOfFile: packageRoot + "/doc/notif.1", encoding: .utf8)
        #expect(checkedIn == declaration.manPage, "doc/notif.1 is out of date: run `make man` and commit it")
    }

    @Test func everyCommandOptionAndSettingIsInThePage() {
        let page = declaration.manPage
        for command in declaration.visibleCommands {
            let names = command.subcommands.isEmpty ? [command.name] : command.subcommands.map { command.name + " " + $0.name }
            for name in names {
                #expect(page.contains(".TP\n" + Roff.synopsis(name)), "\(name)")
            }
            for option in command.options + command.subcommands.flatMap(\.options) {
                #expect(page.contains("\\fB" + Roff.escape(option.long) + "\\fR"), "\(option.long)")
            }
        }
        #expect(!page.contains(NotifCommandLine.reminderActionsCommand))
        for setting in declaration.command("set")!.arguments[0].kind.offered {
            #expect(page.contains("\\fB" + Roff.escape(setting) + "\\fR"), "\(setting)")
        }
        #expect(page.contains("NOTIF_POLL_INTERVAL") && page.contains("NOTIF_SCHEDULER") && page.contains("NOTIF_AUTH_TOKEN"))
    }

    @Test func roffEscapesWhatWouldBeMarkup() {
        #expect(Roff.paragraph("a --flag `notif set` \\n") == "a \\-\\-flag \\fBnotif set\\fR \\en")
        #expect(Roff.paragraph(".starts with a dot") == "\\&.starts with a dot")
        #expect(Roff.synopsis("history [-n COUNT] [--json]") == "\\fBhistory\\fR [\\fB\\-n\\fR \\fICOUNT\\fR] [\\fB\\-\\-json\\fR]")
    }

    /// groff reads the page without a warning (lintian runs the same check on the package).
    @Test(.enabled(if: installed("groff"), "needs groff (groff-base)"))
    func groffReadsThePageWithoutWarnings() throws {
        let file = try temporaryFile(declaration.manPage)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try runProgram(["groff", "-man", "-ww", "-z", "-Tutf8", file])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }
}
