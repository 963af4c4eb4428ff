import Testing
import SharedLogic
@testable import SettingsUI

/// The reducer's side of running effects off the key loop: saves answered later, in order, the
/// last change winning; one scheduler job at a time; quitting that waits for saves or asks.
@Suite struct SavingAndQuittingTests {
    func fresh(_ change: (inout NotificationPreferences) -> Void = { _ in }) -> Script {
        var s = Script(preferences: .with(change))
        s.settles = false
        return s
    }

    func saved(_ s: Script) -> Action {
        .saved(s.state.pendingSaves[0].reduce(s.state.savedPreferences) { $1.applied(to: $0) })
    }

    @Test func keysKeepWorkingWhileSavesAndTheSchedulerAreOnTheirWay() {
        var s = fresh()
        s.press(.down, .down)
        #expect(s.press(.char(" ")) == [.commit([.toggle(.queueAlerts, false)])])
        #expect(s.press(.char(" ")) == [.commit([.toggle(.queueAlerts, true)])])
        #expect(s.press(.char(" ")) == [.commit([.toggle(.queueAlerts, false)])])
        s.press(.down)
        #expect(s.state.focus == .toggle(.promotions), "focus moves with saves on their way")
        #expect(!s.state.preferences[.queueAlerts] && s.state.pendingSaves.count == 3)
        // The first save comes back: the scheduler is asked once; later saves wait for it.
        #expect(s.send(saved(s)) == [.apply(choosing: false)])
        #expect(!s.state.preferences[.queueAlerts], "the later changes still show")
        #expect(s.send(saved(s)).isEmpty)
        #expect(s.send(saved(s)).isEmpty)
        #expect(s.state.savedPreferences[.queueAlerts] == false, "saved in order: the last change wins")
        #expect(s.state.scheduling.waiting == .apply(choosing: false))
        // One more apply runs after the first, with everything saved by then.
        #expect(s.send(.applied(status: .cronFiring, problem: nil)) == [.apply(choosing: false)])
        #expect(s.send(.applied(status: .cronFiring, problem: nil)).isEmpty)
        #expect(s.state.scheduling.running == nil && s.state.pendingSaves.isEmpty)
    }

    @Test func aFailedSaveIsCoveredByALaterChangeOfTheSameSetting() {
        var s = fresh()
        s.press(.down, .down, .char(" "), .char(" "))
        // Off failed, on (the later change) saved: nothing is left unsaved.
        s.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: s.state.savedPreferences, message: "read-only"))
        #expect(s.state.unsaved.isEmpty, "a later change of the same setting is on its way")
        #expect(s.state.preferences[.queueAlerts])
        s.send(saved(s))
        #expect(s.state.unsaved.isEmpty && s.state.saveProblem == nil && s.state.preferences[.queueAlerts])
        // The other way round: on saved, then off failed: off waits to be saved again.
        s.press(.char(" "))
        s.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: s.state.savedPreferences, message: "read-only"))
        #expect(s.state.unsaved == [.toggle(.queueAlerts, false)] && !s.state.preferences[.queueAlerts])
        #expect(s.screen.contains("Not saved: read-only (r retries)"))
    }

    @Test func theSchedulerIsBehindOnlyWhileAPlanChangeIsNotApplied() {
        var s = fresh { $0.permission = .granted }
        s.press(.down, .down, .char(" "))
        s.send(saved(s))
        #expect(!s.state.scheduling.stale, "Queue alerts changes nothing that is scheduled")
        s.send(.applied(status: .cronFiring, problem: nil))
        s.press(.up, .char(" "))
        s.send(saved(s))
        #expect(s.state.scheduling.stale, "Tips & Updates on: the scheduler must follow")
        s.send(.applied(status: .cronFiring, problem: nil))
        #expect(!s.state.scheduling.stale)
    }

    @Test func quitWaitsForSavesOnTheirWayThenQuits() {
        var s = fresh()
        s.press(.down, .down, .char(" "))
        #expect(s.press(.char("q")).isEmpty, "a save is on its way")
        #expect(s.state.closing && s.screen.contains("Saving your changes before quitting"))
        #expect(s.send(saved(s)) == [.apply(choosing: false), .quit])
    }

    @Test func quitWithAChangeThatCouldNotBeSavedAsks() {
        var s = fresh()
        s.press(.down, .down, .char(" "))
        s.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: s.state.savedPreferences,
                             message: "cannot write /x/settings.json: Read-only file system"))
        for key in [Key.char("q"), .escape] {
            #expect(s.press(key).isEmpty)
            #expect(s.state.dialog == .quitUnsaved(focus: .saveAgain))
            let text = s.screen
            #expect(text.contains(QuitQuestion.title) && text.contains("Not saved: Queue alerts off."))
            #expect(text.contains("Why: cannot write /x/settings.json: Read-only file") && text.contains("[ Save again ]") && text.contains("Quit anyway"))
            // Esc goes back to the page with the change kept.
            #expect(s.press(.escape).isEmpty && s.state.dialog == nil && !s.state.preferences[.queueAlerts])
        }
        s.press(.char("q"))
        assertSnapshot(s.canvas, named: "quit-unsaved")
        // Save again: saved this time, so it quits.
        #expect(s.press(.enter) == [.commit([.toggle(.queueAlerts, false)])])
        #expect(s.send(saved(s)) == [.apply(choosing: false), .quit])
        // Save again failing asks again; Quit anyway quits.
        var t = fresh()
        t.press(.down, .down, .char(" "))
        t.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: t.state.savedPreferences, message: "read-only"))
        t.press(.char("q"), .enter)
        t.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: t.state.savedPreferences, message: "read-only"))
        #expect(t.state.dialog == .quitUnsaved(focus: .saveAgain))
        #expect(t.screen.contains("Tried again, still not saved: Queue alerts off."))
        #expect(t.press(.right, .enter) == [.quit])
        #expect(t.state.notYetSaved == [.toggle(.queueAlerts, false)], "the shell says what was lost")
    }

    @Test func notifOnboardingLeavesOnceTheChoiceIsSavedAndScheduled() {
        var p = NotificationPreferences()
        p.permission = .granted
        var s = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true, exitAfterOnboarding: true))
        s.settles = false
        s.press(.enter)
        #expect(s.press(.enter) == [.commit([.toggle(.tipsAndUpdates, true), .onboardingCompleted])])
        #expect(s.send(saved(s)) == [.apply(choosing: false)], "saved: now the scheduler")
        #expect(s.send(.applied(status: .cronFiring, problem: nil)) == [.quit], "scheduled: it leaves")
        // Ctrl-C does not wait.
        var t = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true, exitAfterOnboarding: true))
        t.settles = false
        t.press(.enter, .enter)
        t.send(saved(t))
        #expect(t.press(.ctrl("c")) == [.quit])
    }

    @Test func ctrlCQuitsAtOnceAndCtrlZSuspendsFromAnywhere() {
        var s = fresh()
        s.press(.down, .down, .char(" "))
        #expect(s.press(.ctrl("c")) == [.quit], "even with a save on its way")
        for setup in [{ (s: inout Script) in }, { $0.press(.char("?")) }, { $0.press(.char("p")) }, { $0.press(.char("H")) }] {
            var t = fresh()
            setup(&t)
            #expect(t.press(.ctrl("z")) == [.suspend])
            #expect(t.press(.ctrl("c")) == [.quit])
        }
    }

    @Test func altKeysAreNeverEscape() {
        let alts: [Key] = [.alt("j"), .alt("x"), .alt("d"), .alt("q"), .alt("a"), .alt("[")]
        for setup in [{ (s: inout Script) in }, { $0.press(.char("?")) }, { $0.press(.char("p")) }, { $0.press(.down, .down, .down, .down, .enter) }] {
            var s = fresh()
            setup(&s)
            let before = s.state
            for key in alts {
                #expect(s.press(key).isEmpty, "\(key)")
            }
            #expect(s.state == before, "an Alt key changed the page")
        }
    }

    static let problem = "/h/.config/notif/settings.json line 12, column 22: a comma before } — remove it"

    /// settings.json found not to parse while the page is open: the problem, in place of the
    /// settings, with what can be done; nothing is applied (the scheduler keeps what it holds)
    /// and nothing can be changed until it reads.
    @Test func aSettingsFileThatDoesNotParseIsShownInPlaceOfTheSettings() {
        var s = fresh()
        let on = NotificationPreferences.with { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        _ = s.send(.preferencesReloaded(on))
        _ = s.send(.statusRefreshed(.cronFiring))
        s.settles = false
        #expect(s.send(.settingsUnreadable(Self.problem)) == [.refreshStatus])
        s.settle()
        #expect(s.state.savedPreferences == on, "the settings last read stay what the page knows")
        let screen = s.screen
        #expect(screen.contains("line 12, column 22: a comma before } — remove"), "\(screen)")
        #expect(screen.contains("Next reminder: none — settings.json cannot be read"), "\(screen)")
        #expect(!screen.contains("[x]") && !screen.contains("Tips & Updates"), "no settings shown: \(screen)")
        // Keys that would change a setting do nothing; the problem's own keys ask the shell.
        for key in [Key.char(" "), .right, .char("p"), .char("t"), .char("s")] { #expect(s.press(key).isEmpty, "\(key)") }
        #expect(s.press(.char("e")) == [.editSettings])
        #expect(s.press(.char("r")) == [.reloadPreferences])
        // Reset asks first; Cancel (the default) and Esc change nothing.
        #expect(s.press(.char("d")).isEmpty)
        #expect(s.state.dialog == .resetSettings(focus: .cancel))
        assertSnapshot(s.canvas, named: "settings-reset-question")
        #expect(s.press(.enter).isEmpty && s.state.dialog == nil)
        #expect(s.press(.char("d"), .escape).isEmpty && s.state.dialog == nil)
        #expect(s.press(.char("d"), .left, .enter) == [.resetSettings])
        // It reads again (fixed, or reset): the page is back, and the scheduler is brought in line.
        let reset = "settings.json was reset to the defaults; the old file is kept as /h/.config/notif/settings.json.before-reset-20261201T080000Z"
        #expect(s.send(.preferencesReloaded(NotificationPreferences(), notice: reset)) == [.apply(choosing: false)])
        #expect(s.state.settingsProblem == nil && s.state.settingsNotices == [reset])
        #expect(s.screen.contains("Tips & Updates") && s.screen.contains("before-reset-20261201T080000Z"), "\(s.screen)")
    }

    /// `r` on a file still broken the same way says so; a file broken another way shows its new
    /// problem without that word, and a file that reads again leaves no word behind.
    @Test func stillCannotBeReadIsSaidOnlyForTheSameProblem() {
        var s = fresh()
        s.settles = false
        _ = s.send(.settingsUnreadable(Self.problem))
        #expect(s.state.notice == nil)
        #expect(s.press(.char("r")) == [.reloadPreferences])
        _ = s.send(.settingsUnreadable(Self.problem))
        #expect(s.state.notice?.text == "Read again: it still cannot be read.")
        let other = "/h/.config/notif/settings.json line 1, column 8: a value cannot start with \"}\""
        _ = s.send(.settingsUnreadable(other))
        #expect(s.state.notice == nil && s.state.settingsProblem == other, "\(String(describing: s.state.notice))")
        _ = s.send(.settingsUnreadable(other))
        _ = s.send(.preferencesReloaded(NotificationPreferences()))
        #expect(s.state.settingsProblem == nil && s.state.notice == nil, "\(String(describing: s.state.notice))")
        #expect(!s.screen.contains("still cannot be read"), "\(s.screen)")
    }

    /// A page that starts on a file that does not parse applies nothing, and quitting says so.
    @Test func aPageStartedOnABadFileAppliesNothing() {
        var state = AppState(preferences: NotificationPreferences(), status: SchedulerStatus(checked: false))
        state.settingsProblem = Self.problem
        var s = Script(state)
        s.settles = false
        #expect(s.send(.opened) == [.refreshStatus])
        assertSnapshot(s.canvas, named: "settings-problem")
        #expect(s.press(.char("q")) == [.quit])
        s.state.size = SettingsApp.minimumSize
        assertSnapshot(s.canvas, named: "settings-problem-minimum")
    }

    /// Settings another process saved (a hand edit, say) are shown and applied: nobody else may
    /// apply them. Changes to the schedule and deliveries are read again.
    @Test func whatOthersChangeIsShownAppliedAndTheSchedulerReadAgain() {
        var s = fresh()
        #expect(s.send(.changedElsewhere(.settings)) == [.reloadPreferences])
        #expect(s.send(.preferencesReloaded(s.state.savedPreferences)).isEmpty, "nothing new: nothing to do")
        let other = NotificationPreferences.with { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(s.send(.preferencesReloaded(other)) == [.apply(choosing: false)])
        #expect(s.state.preferences == other)
        #expect(s.send(.applied(status: .cronFiring, problem: nil)).isEmpty)
        #expect(s.send(.changedElsewhere(.schedule)) == [.refreshStatus])
        #expect(s.send(.changedElsewhere(.schedule)).isEmpty, "one read at a time; another waits")
        #expect(s.send(.statusRefreshed(.cronFiring)) == [.refreshStatus])
        #expect(s.send(.statusRefreshed(nil)).isEmpty)
        #expect(s.state.status == .cronFiring, "an unreadable scheduler keeps what was shown")
        // A delivery: the next reminder moves on, and a History screen shows the new entry.
        s.press(.char("H"))
        #expect(s.send(.changedElsewhere(.deliveries)) == [.refreshStatus, .loadHistory])
    }

    @Test func aRefreshNeverClearsAnApplysError() {
        var s = fresh { $0.permission = .granted }
        s.send(.opened)
        s.send(.applied(status: .cronFiring, problem: "Not scheduled: crontab hangs"))
        s.send(.changedElsewhere(.schedule))
        s.send(.statusRefreshed(.cronFiring))
        #expect(s.state.error == "Not scheduled: crontab hangs")
    }

    @Test func theFirstFrameAsksForTheSchedulerAndAccountsForTheirRegistration() {
        var guest = fresh()
        #expect(guest.send(.opened) == [.apply(choosing: false)])
        var account = fresh { $0.mode = .account }
        #expect(account.send(.opened) == [.apply(choosing: false), .registerDevice])
    }
}
