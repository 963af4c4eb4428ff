import CommandLineInterface
import Foundation
import LinuxGateway
@testable import NotifApp
import SharedLogic
import Storage
import Testing

/// `notif daemon`'s options that do not run the daemon: the autostart entry (with the poll
/// interval it is given) and the checks of that interval, on a scratch home.
@Suite struct DaemonCommandTests {
    let fixture = AppFixture()
    let captured = CapturedOutput()

    func run(_ argv: [String]) throws(UsageError) -> ExitCode {
        let declaration = NotifCommandLine.declaration
        let parsed = try declaration.parse(try declaration.invocation(argv, environment: { _ in nil }), environment: { _ in nil })
        return try Commands(context: fixture.context, output: captured.output).run(parsed)
    }

    var entryPath: String { Autostart.path(in: fixture.scratch.paths) }

    @Test func theAutostartEntryStartsTheDaemonWithThePollIntervalGiven() throws {
        #expect(try run(["daemon", "--install-autostart", "--poll-interval", "20"]) == .success)
        let entry = try String(contentsOfFile: entryPath, encoding: .utf8)
        #expect(entry.contains("/usr/local/bin/notif daemon --poll-interval 20\n"), "\(entry)")
        #expect(captured.out == "Wrote \(entryPath): notif daemon starts at each desktop login.\n")
        // The same again changes nothing and says so.
        #expect(try run(["daemon", "--install-autostart", "--poll-interval", "20"]) == .success)
        #expect(captured.out.hasSuffix("\(entryPath) is already in place: notif daemon starts at each desktop login.\n"))
    }

    @Test func withoutAPollIntervalTheEntryRunsThePlainDaemon() throws {
        #expect(try run(["daemon", "--install-autostart"]) == .success)
        let entry = try String(contentsOfFile: entryPath, encoding: .utf8)
        #expect(entry.contains("/usr/local/bin/notif daemon\n") && !entry.contains("--poll-interval"), "\(entry)")
    }

    @Test func aBadPollIntervalForTheEntryIsBadUsageAndWritesNothing() {
        #expect { try run(["daemon", "--install-autostart", "--poll-interval", "5"]) } throws: {
            ($0 as? UsageError)?.message == "--poll-interval '5' is not a number of seconds (10 or more)"
        }
        #expect { try run(["daemon", "--install-autostart", "--poll-interval", "604801"]) } throws: {
            ($0 as? UsageError)?.message == "--poll-interval '604801' is too large (at most 604800 seconds, a week)"
        }
        #expect(!FileManager.default.fileExists(atPath: entryPath))
    }

    @Test func theIntervalsRangeComesFromTheDeclaration() {
        #expect(Commands.shortestPollInterval == 10 && Commands.longestPollInterval == 7 * 24 * 3600)
    }

    @Test func removingTheEntrySaysWhetherThereWasOne() throws {
        #expect(try run(["daemon", "--install-autostart"]) == .success)
        #expect(try run(["daemon", "--remove-autostart"]) == .success)
        #expect(!FileManager.default.fileExists(atPath: entryPath))
        #expect(try run(["daemon", "--remove-autostart"]) == .success)
        #expect(captured.out.hasSuffix("Removed \(entryPath).\nThere is no autostart entry at \(entryPath).\n"), "\(captured.out)")
    }

    @Test func itsOwnProgramIsGoneWhenItsPathNoLongerRuns() {
        #expect(Commands.ownProgramGone(isExecutable: { _ in true }) == nil, "this test's program is there")
        let gone = Commands.ownProgramGone(isExecutable: { _ in false })
        #expect(gone?.hasPrefix("notif's own program /") == true && gone?.hasSuffix(" is no longer an executable file") == true, "\(gone ?? "nil")")
    }
}
