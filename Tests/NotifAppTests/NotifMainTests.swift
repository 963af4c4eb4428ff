import CommandLineInterface
@testable import NotifApp
import Testing

@Suite struct NotifMainTests {
    @Test func aScheduledDeliveryIsQuietWhereverItsOptionsStand() {
        #expect(NotifMain.isQuietDelivery(["deliver", "--quiet", "tips-and-updates"]))
        #expect(NotifMain.isQuietDelivery(["deliver", "tips-and-updates", "--quiet"]))
        #expect(NotifMain.isQuietDelivery(["--scheduler", "cron", "deliver", "--catch-up", "--quiet", "tips-and-updates"]))
    }

    @Test func otherCommandsAndQuietAfterTheEndOfOptionsAreNotQuiet() {
        #expect(!NotifMain.isQuietDelivery(["deliver", "tips-and-updates"]))
        #expect(!NotifMain.isQuietDelivery(["status", "--quiet"]))
        #expect(!NotifMain.isQuietDelivery(["deliver", "tips-and-updates", "--", "--quiet"]))
        // `deliver` as the value of --scheduler is not the command.
        #expect(!NotifMain.isQuietDelivery(["--scheduler", "deliver", "status", "--quiet"]))
        #expect(!NotifMain.isQuietDelivery([]))
    }

    @Test func aQuietDeliveryWithBadUsageWritesNothingAndExitsTwo() {
        let captured = CapturedOutput()
        let code = NotifMain.run(["deliver", "--quiet", "--no-such-option", "tips-and-updates"], output: captured.output)
        #expect(code == 2)
        #expect(captured.out.isEmpty)
        #expect(captured.err.isEmpty)
    }

    @Test func anUnknownCommandIsBadUsageNamingIt() {
        let captured = CapturedOutput()
        let code = NotifMain.run(["frobnicate"], output: captured.output)
        #expect(code == 2)
        #expect(captured.out.isEmpty)
        #expect(captured.err == "notif: unknown command 'frobnicate'\nRun `notif --help` for the commands.\n")
    }

    @Test func versionPrintsTheVersionOnStdout() {
        let captured = CapturedOutput()
        #expect(NotifMain.run(["--version"], output: captured.output) == 0)
        #expect(captured.out == "notif \(NotifVersion.current)\n")
        #expect(captured.err.isEmpty)
    }
}
