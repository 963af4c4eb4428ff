import AccountClient
import Foundation
import LinuxGateway
@testable import NotifApp
import SettingsUI
import SharedLogic
import Storage
import Testing
import TestSupport

/// The page's effects carried out on real files in a scratch home, with the built-in scheduler
/// (whose entries are files) and a scripted runner standing in for notify-send: each effect
/// answers with the action the reducer expects.
@Suite struct PageEffectsTests {
    func effects(_ fixture: AppFixture) -> PageEffects {
        let service = fixture.service
        return PageEffects(service: service, account: AccountService(reminders: service, transport: CurlTransport(runner: fixture.runner),
                                                                     appVersion: "test"))
    }
    let tips = "tips-and-updates"

    var allowed: NotificationPreferences { .tipsOnAndAllowed }

    @Test func aCommitSavesTheChangesAndAnswersWithWhatIsSaved() throws {
        let fixture = AppFixture()
        let answer = effects(fixture).perform(.commit([.toggle(.tipsAndUpdates, true), .permission(.granted), .sound(.chime)]))
        var expected = allowed
        expected.sound = .chime
        #expect(answer == .saved(expected))
        #expect(try fixture.context.store.load().preferences == expected, "the file holds it")
    }

    @Test func aCommitThatCannotBeWrittenAnswersWithTheSavedSettingsAndWhy() throws {
        let fixture = AppFixture()
        // The settings directory cannot be made: a file stands where it would be.
        try "not a directory".write(toFile: fixture.scratch.path + "/config", atomically: true, encoding: .utf8)
        let changes: [PreferenceChange] = [.toggle(.tipsAndUpdates, true)]
        guard case .commitFailed(let failed, let preferences, let message)? = effects(fixture).perform(.commit(changes)) else {
            Issue.record("not a failed commit")
            return
        }
        #expect(failed == changes && preferences == nil, "what is saved cannot be read either")
        #expect(message.contains(fixture.scratch.path + "/config"), "\(message)")
    }

    /// The configuration list cannot be written (a file stands where its directory would be): the
    /// entry is scheduled all the same, and the page is told what `reset --entries` will miss.
    @Test func anApplyThatCannotListItsConfigurationSaysSo() throws {
        let fixture = AppFixture()
        try fixture.context.store.update { $0 = allowed }
        try FileManager.default.createDirectory(atPath: fixture.scratch.path + "/.local/state", withIntermediateDirectories: true)
        try "not a directory".write(toFile: fixture.scratch.path + "/.local/state/notif", atomically: true, encoding: .utf8)
        guard case .applied(let status, let problem)? = effects(fixture).perform(.apply(choosing: false)) else {
            Issue.record("not an apply result")
            return
        }
        #expect(status.facts.entries?[tips]?.current == true, "scheduled all the same: \(status.facts)")
        #expect(problem?.contains("`notif reset --entries` finds this configuration's entries only when run with its XDG_CONFIG_HOME") == true,
                "\(problem ?? "no problem")")
    }

    @Test func anApplyInstallsTheEntryAndSaysWhetherItsSchedulerFires() throws {
        var fixture = AppFixture()
        try fixture.context.store.update { $0 = allowed }
        guard case .applied(let status, let problem)? = effects(fixture).perform(.apply(choosing: false)) else {
            Issue.record("not an apply result")
            return
        }
        #expect(problem == nil)
        #expect(status.scheduler == .embedded && status.facts.entries?[tips]?.current == true, "\(status.facts)")
        #expect(status.facts.schedulerCannotFire == .daemonNotRunning, "no notif daemon runs")
        #expect(status.nextFire[tips] == ISO8601.parse("2026-12-01T09:00:00Z"))
        #expect(FileManager.default.fileExists(atPath: fixture.scratch.path + "/state/notif/embedded"))
        // Read back as `status` reads it: the same entry, now with its firing; a running daemon fires it.
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedDaemonRunning: true)
        guard case .statusRefreshed(let refreshed?)? = effects(fixture).perform(.refreshStatus) else {
            Issue.record("no refreshed status")
            return
        }
        #expect(refreshed.facts.entries?[tips]?.firing == EntryFiring(.embedded(time: DailyTime(hour: 9, minute: 0), weekday: nil, zone: nil),
                                                                      wanted: WantedTime(time: DailyTime(hour: 9, minute: 0), zone: "UTC")))
        #expect(refreshed.facts.schedulerCannotFire == nil && refreshed.overridden)
        // Turned off: the next apply removes it.
        try fixture.context.store.update { $0[.tipsAndUpdates] = false }
        guard case .applied(let off, nil)? = effects(fixture).perform(.apply(choosing: false)) else {
            Issue.record("not a clean apply result")
            return
        }
        #expect(off.facts.entries?.isEmpty == true)
    }

    @Test func anApplyThatCannotWriteSaysNotScheduledAndWhy() throws {
        let fixture = AppFixture()
        try fixture.context.store.update { $0 = allowed }
        // The built-in schedule's directory cannot be made.
        try FileManager.default.createDirectory(atPath: fixture.scratch.path + "/state/notif", withIntermediateDirectories: true)
        try "x".write(toFile: fixture.scratch.path + "/state/notif/embedded", atomically: true, encoding: .utf8)
        guard case .applied(let status, let problem?)? = effects(fixture).perform(.apply(choosing: false)) else {
            Issue.record("no problem reported")
            return
        }
        #expect(problem.hasPrefix("Not scheduled: "), "\(problem)")
        #expect(status.facts.entries?[tips] == nil)
    }

    /// A reload answers with the file; one that does not parse (once quiet) with why, the file
    /// kept as it is; none at all changes nothing.
    @Test func aReloadAnswersWithTheFileOrWhyItCannotBeRead() throws {
        let fixture = AppFixture()
        try fixture.context.store.update { $0 = allowed }
        #expect(effects(fixture).perform(.reloadPreferences) == .preferencesReloaded(allowed, notice: nil))
        let path = fixture.context.store.settingsPath
        try "{ not json".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(effects(fixture).perform(.reloadPreferences) == .settingsUnreadable(path + " line 1, column 3: the key not has no quotes — put it in double quotes: \"not\""))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{ not json")
        // Reset: the defaults, the file kept beside it and named.
        guard case .preferencesReloaded(let preferences, let notice?)? = effects(fixture).perform(.resetSettings) else {
            Issue.record("the reset did not answer with the settings")
            return
        }
        #expect(preferences[.tipsAndUpdates] == false && preferences.onboardingCompleted)
        let copy = try #require(notice.split(separator: " ").last.map(String.init))
        #expect(copy.hasPrefix(path + ".before-reset-"), "\(notice)")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "{ not json")
        try FileManager.default.removeItem(atPath: path)
        // Removed: the defaults, said.
        guard case .preferencesReloaded(let defaults, let removed?)? = effects(fixture).perform(.reloadPreferences) else {
            Issue.record("a removed file did not bring the defaults")
            return
        }
        #expect(defaults[.tipsAndUpdates] == false && removed.hasPrefix("settings.json was removed: the defaults are in force"), "\(removed)")
    }

    @Test func aTestNotificationSaysWhetherItWasShownAndTheHistoryListsIt() throws {
        let fixture = AppFixture()
        #expect(effects(fixture).perform(.sendTest) == .testFinished(succeeded: false, message: "Test notification not sent: permission is Not decided"))
        #expect(fixture.desktop.shown.isEmpty, "nothing is shown without permission")
        try fixture.context.store.update { $0.permission = .granted }
        let shown = effects(fixture).perform(.sendTest)
        guard case .testFinished(true, let message)? = shown else {
            Issue.record("the test notification was not sent: \(String(describing: shown)); ran \(fixture.runner.argvs)")
            return
        }
        #expect(message.hasPrefix("Test notification "), "\(message)")
        #expect(message == "Test notification accepted by the notification service through the user bus as notification 7.", "\(message)")
        #expect(fixture.desktop.shown == ["notif test notification"])
        fixture.desktop.fails = true
        guard case .testFinished(false, let failure)? = effects(fixture).perform(.sendTest) else {
            Issue.record("a failed test notification counted as shown")
            return
        }
        #expect(failure.hasPrefix("Test notification not sent: "), "\(failure)")
        guard case .historyLoaded(.records(let records))? = effects(fixture).perform(.loadHistory) else {
            Issue.record("no delivery log")
            return
        }
        #expect(records.map(\.kind) == [.test, .test, .test] && records.map(\.outcome).first != .delivered, "newest first: \(records)")
    }

    @Test func theChooserListsAutoFirstThenEachScheduler() {
        let fixture = AppFixture()
        guard case .schedulersChecked(let options)? = effects(fixture).perform(.checkSchedulers) else {
            Issue.record("no chooser lines")
            return
        }
        #expect(options.map(\.choice) == [.auto] + SchedulerUsability.all(probe: fixture.probe).map(\.choice))
        #expect(options.count == 4 && options[0].state == .ready && options[0].reason.hasPrefix("auto keeps the reminder on its scheduler"))
        // What auto picks now is said once: the pick's own words, not "now cron: auto picked cron".
        #expect(options[0].reason.components(separatedBy: "picked").count <= 2 && !options[0].reason.contains("now "), "\(options[0].reason)")
    }

    @Test func effectsTheKeyLoopHandlesAnswerNothing() {
        let fixture = AppFixture()
        #expect(effects(fixture).perform(.quit) == nil && effects(fixture).perform(.suspend) == nil)
    }
}
