@testable import NotifApp
import SettingsUI
import SharedLogic
import Testing

@Suite struct QuitReportTests {
    @Test func nothingLeftOverExitsZeroAndSaysNothing() {
        let report = QuitReport(notSaved: [], saveProblem: nil, unscheduled: false, stopped: [])
        let captured = CapturedOutput()
        report.print(to: captured.output)
        #expect(report.exitCode == .success)
        #expect(captured.err.isEmpty && captured.out.isEmpty)
    }

    @Test func unsavedChangesAreNamedWithTheProblemAndExitOne() {
        let report = QuitReport(notSaved: [.toggle(.tipsAndUpdates, true), .sound(.chime)], saveProblem: "Not saved: disk full",
                                unscheduled: false, stopped: [])
        let captured = CapturedOutput()
        report.print(to: captured.output)
        #expect(report.exitCode == .failure)
        #expect(captured.err == "notif: not saved: Tips & Updates on, Sound chime; disk full\n")
    }

    @Test func anUnfinishedApplySaysWhatWasStoppedAndExitsOne() {
        let report = QuitReport(notSaved: [], saveProblem: nil, unscheduled: true, stopped: ["crontab"],
                                settingsNotices: ["settings.json was corrupt"])
        let captured = CapturedOutput()
        report.print(to: captured.output)
        #expect(report.exitCode == .failure)
        #expect(captured.err == "notif: warning: settings.json was corrupt\n"
            + "notif: the scheduler may not match the saved settings yet: crontab was still running and was stopped; `notif apply` brings it in line\n")
    }
}
