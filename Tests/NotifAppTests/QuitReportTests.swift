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
                                settingsNotices: ["settings.json was reset to the defaults; the old file is kept as x"])
        let captured = CapturedOutput()
        report.print(to: captured.output)
        #expect(report.exitCode == .failure)
        #expect(captured.err == "notif: warning: settings.json was reset to the defaults; the old file is kept as x\n"
            + "notif: the scheduler may not match the saved settings yet: crontab was still running and was stopped; `notif apply` brings it in line\n")
    }

    /// Quitting while settings.json cannot be read: said again, exit 1 (nothing could be changed).
    @Test func quittingWhileTheSettingsCannotBeReadSaysSoAndExitsOne() {
        let report = QuitReport(notSaved: [], saveProblem: nil, unscheduled: false, stopped: [],
                                settingsProblem: "/h/settings.json line 2, column 3: a comment — remove it: JSON has no comments")
        let captured = CapturedOutput()
        report.print(to: captured.output)
        #expect(report.exitCode == .failure)
        #expect(captured.err == "notif: /h/settings.json line 2, column 3: a comment — remove it: JSON has no comments; notif changed nothing (`notif edit` opens it)\n")
    }
}
