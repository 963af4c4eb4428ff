import Testing
import SharedLogic
@testable import SettingsUI

@Suite struct PageKeyTests {
    @Test func opensWithFocusOnPushNotificationsAndTheCursorOnIt() {
        let s = Script(preferences: .with { _ in })
        #expect(s.state.focus == .toggle(.pushNotifications))
        let canvas = s.canvas
        #expect(canvas.cursor?.row == canvas.row(containing: "Push Notifications"))
        assertSnapshot(canvas, named: "page-default")
    }

    @Test func movementKeysVisitEveryRowAndStopAtTheEnds() {
        for (down, up) in [(Key.down, Key.up), (.char("j"), .char("k")), (.tab, .backTab)] {
            var s = Script(preferences: .with { _ in })
            var seen: [PageRow] = [s.state.focus]
            for _ in 0..<7 {
                s.press(down)
                seen.append(s.state.focus)
            }
            #expect(seen == [.pushNotifications, .tipsAndUpdates, .queueAlerts, .promotions].map(PageRow.toggle) + [.sound] + Array(repeating: .toggle(.vibration), count: 3))
            for _ in 0..<7 { s.press(up) }
            #expect(s.state.focus == .toggle(.pushNotifications))
            #expect(s.effects.isEmpty)
        }
    }

    @Test func spaceAndEnterToggleAndCommitAtOnce() {
        var s = Script(preferences: .with { _ in })
        s.press(.down, .down)
        #expect(s.press(.char(" ")) == [.commit([.toggle(.queueAlerts, false)])])
        #expect(!s.state.preferences[.queueAlerts])
        #expect(s.screen.contains("[ ] Queue alerts"))
        #expect(s.press(.enter) == [.commit([.toggle(.queueAlerts, true)])])
        #expect(s.state.preferences[.queueAlerts])
    }

    @Test func leftAndRightSetOffAndOnAndOnlyCommitChanges() {
        var s = Script(preferences: .with { _ in })
        s.press(.down, .down, .down) // Promotions, off
        #expect(s.press(.left).isEmpty)
        #expect(s.press(.right) == [.commit([.toggle(.promotions, true)])])
        #expect(s.press(.char("l")).isEmpty)
        #expect(s.press(.char("h")) == [.commit([.toggle(.promotions, false)])])
    }

    @Test func leftAndRightCycleTheSound() {
        var s = Script(preferences: .with { _ in })
        s.press(.down, .down, .down, .down)
        #expect(s.state.focus == .sound)
        #expect(s.press(.right) == [.commit([.sound(.chime)])])
        #expect(s.press(.right) == [.commit([.sound(.bell)])])
        #expect(s.press(.left) == [.commit([.sound(.chime)])])
        #expect(s.screen.contains("‹ chime ›"))
    }

    @Test func enterOnSoundOpensTheListToChooseFrom() {
        var s = Script(preferences: .with { _ in })
        s.press(.down, .down, .down, .down, .enter)
        #expect(s.state.dialog == .soundList(selected: .default))
        assertSnapshot(s.canvas, named: "sound-list")
        s.press(.down, .char("j"), .down, .down)
        #expect(s.state.dialog == .soundList(selected: .silent))
        s.press(.up, .char("k"))
        #expect(s.state.dialog == .soundList(selected: .chime))
        #expect(s.press(.enter) == [.commit([.sound(.chime)])])
        #expect(s.state.dialog == nil && s.state.preferences.sound == .chime)
        s.press(.enter)
        #expect(s.press(.escape).isEmpty && s.state.dialog == nil)
        s.press(.enter)
        #expect(s.press(.char("q")).isEmpty && s.state.dialog == nil)
        s.press(.enter)
        #expect(s.press(.char(" ")).isEmpty, "choosing the current sound changes nothing")
    }

    @Test func masterOffKeepsValuesButDisablesAndSkipsDependentRows() {
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted })
        #expect(s.press(.char(" ")) == [.commit([.toggle(.pushNotifications, false)])])
        #expect(s.state.preferences[.tipsAndUpdates], "the saved value is kept")
        s.press(.down, .down, .tab)
        #expect(s.state.focus == .toggle(.pushNotifications), "dependent rows are skipped")
        s.press(.right)
        #expect(s.state.preferences[.pushNotifications])
        let canvas = s.canvas
        #expect(canvas.text.contains("[x] Tips & Updates       Daily at 09:00"))
        s.press(.left)
        let off = s.canvas
        assertSnapshot(off, named: "page-master-off")
        let tipsRow = try! #require(off.row(containing: "Tips & Updates"))
        #expect(off.text(ofRow: tipsRow).contains("Paused: Push Notifications is off"), "disabled shows without colour")
        #expect(off[tipsRow, PageScreen.switchColumn].role == .disabled)
        #expect(off.text.contains("Next reminder: none — off (Push Notifications is off)"))
    }

    @Test func focusLeavesARowThatBecomesDisabled() {
        var s = Script(preferences: .with { _ in })
        s.press(.down, .down)
        s.send(.preferencesReloaded(.with { $0[.pushNotifications] = false }))
        #expect(s.state.focus == .toggle(.pushNotifications))
    }

    @Test func quitKeys() {
        for key in [Key.char("q"), .escape, .ctrl("c")] {
            var s = Script(preferences: .with { _ in })
            #expect(s.press(key) == [.quit])
        }
    }

    /// Every key the page answers is in its key bar when the bar has room; at 80 columns the
    /// most important ones stay.
    @Test func theKeyBarListsEveryPageKeyWhenThereIsRoom() {
        let wide = KeyMap.bar(for: .page, width: 200, unicode: true, omitting: [.retry])
        #expect(wide == "↑↓ move  Space toggle  ←→ off/on  p permission  s scheduler  t test  H history  ? help  q quit", "\(wide)")
        let narrow = KeyMap.bar(for: .page, width: 78, unicode: true, omitting: [.retry])
        #expect(narrow == "↑↓ move  Space toggle  p permission  t test  H history  ? help  q quit", "\(narrow)")
    }

    @Test func testKeySendsATestAndShowsTheOutcome() {
        var s = Script(preferences: .with { $0.permission = .granted })
        #expect(s.press(.char("t")) == [.sendTest])
        #expect(s.screen.contains("Sending a test notification"))
        s.send(.testFinished(succeeded: false, message: "Test notification not sent: no D-Bus session bus"))
        #expect(s.screen.contains("Test notification not sent: no D-Bus session bus"))
        #expect(s.state.notice?.isWarning == true)
    }

    /// A refusal that status warns of and the failed apply names is on the page once.
    @Test func aRefusalIsSaidOnce() {
        var s = Script(preferences: .with { $0.permission = .granted })
        s.settles = false
        _ = s.press(.down, .char(" "))
        _ = s.send(.saved(s.state.preferences))
        let why = "notif's program /tmp/x/notif is in a place other users can change"
        s.send(.applied(status: SchedulerStatus(scheduler: .cron, installed: [], warnings: [why]), problem: "Not scheduled: " + why))
        #expect(s.canvas.text.components(separatedBy: "/tmp/x/notif").count == 2, "\(s.canvas.text)")
    }

    @Test func errorsAreShownWithTheRetryKeyAndRetryClearsThem() {
        var s = Script(preferences: .with { $0.permission = .granted })
        s.settles = false
        #expect(s.press(.down, .char(" ")) == [.commit([.toggle(.tipsAndUpdates, true)])])
        #expect(s.send(.saved(s.state.preferences)) == [.apply(choosing: false)])
        s.send(.applied(status: SchedulerStatus(scheduler: .cron, installed: []),
                        problem: "Not scheduled: `crontab -` failed (exit status 1: disk full); your crontab was not changed"))
        let canvas = s.canvas
        #expect(canvas.text.contains("Not scheduled: `crontab -` failed"))
        #expect(canvas.text.contains("(r retries)"))
        #expect(canvas.text.contains("r retry"), "the key bar offers r while there is an error")
        #expect(canvas.text.contains("Next reminder: none — not scheduled yet"))
        assertSnapshot(canvas, named: "page-error")
        #expect(s.press(.char("r")) == [.apply(choosing: false)])
        s.send(.applied(status: SchedulerStatus(scheduler: .cron, installed: ["tips-and-updates"], nextFire: SchedulerStatus.nine), problem: nil))
        #expect(s.state.error == nil)
        #expect(s.screen.contains("Next reminder: Mon 30 Nov 09:00"))
        #expect(s.press(.char("r")).isEmpty, "nothing to retry")
    }

    @Test func aFailedSaveKeepsTheChangeAndRetrySavesItAgain() {
        var s = Script(preferences: .with { _ in })
        s.settles = false
        s.press(.down, .down, .char(" "))
        #expect(!s.state.preferences[.queueAlerts])
        s.send(.commitFailed(changes: [.toggle(.queueAlerts, false)], preferences: .with { _ in },
                             message: "cannot write /x/settings.json: Read-only file system"))
        #expect(!s.state.preferences[.queueAlerts], "the change is kept on the page")
        #expect(s.screen.contains("Not saved: cannot write /x/settings.json: Read-only file system (r retries)"))
        // Another change carries the unsaved one with it.
        #expect(s.press(.down, .char(" ")) == [.commit([.toggle(.queueAlerts, false), .toggle(.promotions, true)])])
        s.send(.commitFailed(changes: [.toggle(.queueAlerts, false), .toggle(.promotions, true)], preferences: .with { _ in }, message: "still read-only"))
        #expect(s.press(.char("r")) == [.commit([.toggle(.queueAlerts, false), .toggle(.promotions, true)])])
        #expect(s.screen.contains("Retrying"))
        s.settle()
        #expect(s.state.unsaved.isEmpty && s.state.error == nil && s.state.saveProblem == nil)
        #expect(s.screen.contains("Done: the settings are saved and scheduled."))
        #expect(!s.screen.contains("Retrying"))
        #expect(s.press(.char(" ")) == [.commit([.toggle(.promotions, false)])], "nothing unsaved is left to carry")
    }

    @Test func helpShowsEveryBindingAndClosesWithItsKeys() {
        for close in [Key.escape, .char("q"), .char("?")] {
            var s = Script(preferences: .with { _ in })
            s.press(.char("?"))
            #expect(s.state.screen == .help(scroll: 0))
            s.press(close)
            #expect(s.state.screen == .page)
        }
        var s = Script(preferences: .with { _ in }, size: TerminalSize(width: 80, height: 70))
        s.press(.char("?"))
        let text = s.screen
        for binding in KeyMap.bindings {
            #expect(text.contains(binding.help), "help lacks \(binding.help)")
        }
        assertSnapshot(s.canvas, named: "help")
        var small = Script(preferences: .with { _ in })
        small.press(.char("?"), .down, .down, .down)
        #expect(small.state.screen == .help(scroll: 3))
        #expect(small.canvas.text != Script(preferences: .with { _ in }).canvas.text)
        // Help that does not fit says where the view is and that there is more.
        #expect(!text.contains("more below") && !text.contains("more above"), "the help fits at 80x70")
        var top = Script(preferences: .with { _ in })
        top.press(.char("?"))
        let total = HelpScreen.layout(width: 78, unicode: true).count
        #expect(top.screen.contains("lines 1–20 of \(total), ↓ more below"), "\(top.screen)")
        #expect(small.screen.contains("lines 4–23 of \(total), ↑↓ more above and below"), "\(small.screen)")
        for _ in 0..<total { top.press(.down) }
        #expect(top.screen.contains("lines \(total - 19)–\(total) of \(total), ↑ more above"), "\(top.screen)")
        #expect(HelpScreen.moreLine(start: 3, visible: 20, total: 48, unicode: false) == "lines 4-23 of 48, Up/Down more above and below")
        // Enter opens a History entry; the help's key bar does not offer it.
        #expect(!top.canvas.text(ofRow: top.canvas.height - 1).contains("Enter"), "\(top.screen)")
    }

    @Test func historyScreenLoadsAndListsNewestFirst() {
        var s = Script(preferences: .with { _ in })
        #expect(s.press(.char("H")) == [.loadHistory])
        #expect(s.screen.contains("Loading"))
        let day = CivilDate(year: 2026, month: 11, day: 30)
        s.send(.historyLoaded(.records([
            DeliveryRecord(time: "2026-11-30T09:00:01+01:00", day: day, reminder: "tips-and-updates", kind: .scheduled, outcome: .delivered, detail: "shown through the recorded session"),
            DeliveryRecord(time: "2026-11-29T18:00:00+01:00", day: day, reminder: "test", kind: .test, outcome: .failed, detail: "no D-Bus session bus"),
        ])))
        assertSnapshot(s.canvas, named: "history")
        s.press(.char("H"))
        #expect(s.state.screen == .page)
        s.press(.char("H"))
        s.send(.historyLoaded(.records([])))
        #expect(s.screen.contains("No deliveries yet"))
        s.send(.historyLoaded(.failed("cannot read /x/deliveries.jsonl: Permission denied")))
        #expect(s.screen.contains("Could not read the history: cannot read /x/deliveries.jsonl"))
    }

    @Test func asciiFallbackDrawsNoUnicode() {
        let s = Script(preferences: .with { _ in }, unicode: false)
        let text = s.screen
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(text.contains("Next reminder: none - off (Tips & Updates is off)"))
        assertSnapshot(s.canvas, named: "page-ascii")
    }

    @Test func everyKeyInTheTableDoesWhatItSays() {
        // Each binding, in each of its contexts, with each of its keys: the effects it asks for
        // and the state it leaves, exactly. A binding with no expectation here fails.
        for binding in KeyMap.bindings {
            for context in KeyContext.allCases where binding.contexts.contains(context) {
                guard let expected = Self.expectation(for: binding.command, in: context) else {
                    Issue.record("no expectation for \(binding.command) in \(context): add one")
                    continue
                }
                for key in binding.keys {
                    var s = Script(expected.before)
                    s.settles = false
                    let effects = s.press(key)
                    #expect(effects == expected.effects, "\(key) (\(binding.command)) in \(context): effects \(effects)")
                    let holds = expected.after(s.state)
                    #expect(holds, "\(key) (\(binding.command)) in \(context): not so that \(expected.what)")
                }
            }
        }
    }

    /// What a command does in a context: from which state, asking for which effects, leaving what.
    struct KeyExpectation {
        var before: AppState
        var effects: [Effect] = []
        var what: String
        var after: (AppState) -> Bool
    }

    static func expectation(for command: Command, in context: KeyContext) -> KeyExpectation? {
        var state = AppState(preferences: .with { $0.permission = .granted }, status: .cronFiring)
        func expect(_ effects: [Effect], _ what: String, _ after: @escaping (AppState) -> Bool) -> KeyExpectation {
            KeyExpectation(before: state, effects: effects, what: what, after: after)
        }
        func expect(_ what: String, _ after: @escaping (AppState) -> Bool) -> KeyExpectation { expect([], what, after) }
        switch (context, command) {
        case (.page, .previous):
            state.focus = .toggle(.vibration)
            return expect("focus moves up to Sound") { $0.focus == .sound }
        case (.page, .next):
            return expect("focus moves down to Tips & Updates") { $0.focus == .toggle(.tipsAndUpdates) }
        case (.page, .activate):
            return expect([.commit([.toggle(.pushNotifications, false)])], "Push Notifications turns off") { !$0.preferences[.pushNotifications] }
        case (.page, .turnOff):
            state.focus = .toggle(.vibration)
            return expect([.commit([.toggle(.vibration, false)])], "Vibration turns off") { !$0.preferences[.vibration] && $0.focus == .toggle(.vibration) }
        case (.page, .turnOn):
            state.focus = .toggle(.promotions)
            return expect([.commit([.toggle(.promotions, true)])], "Promotions turns on") { $0.preferences[.promotions] && $0.focus == .toggle(.promotions) }
        case (.page, .permission):
            return expect("the permission prompt opens on Allow") { $0.dialog == .permission(focus: .allow, reason: .requested) }
        case (.page, .scheduler):
            return expect([.checkSchedulers], "the chooser opens on the saved choice and looks at the schedulers again") {
                $0.dialog == .schedulerList(selected: .auto)
            }
        case (.page, .test):
            return expect([.sendTest], "a test is sent and the page says so") { $0.notice?.text.contains("test notification") == true }
        case (.page, .history):
            return expect([.loadHistory], "the history screen opens, loading") { $0.screen == .history(HistoryView(content: .loading)) }
        case (.page, .retry):
            state.error = "Not scheduled: x"
            return expect([.apply(choosing: false)], "the apply is retried") { $0.retrying && $0.error == "Not scheduled: x" }
        case (.page, .help):
            return expect("the help screen opens at its top") { $0.screen == .help(scroll: 0) }
        case (.problem, .edit):
            state.settingsProblem = "settings.json line 1, column 2: x — y"
            let before = state
            return expect([.editSettings], "the editor is asked for, nothing else changes") { $0 == before }
        case (.problem, .reload):
            state.settingsProblem = "settings.json line 1, column 2: x — y"
            return expect([.reloadPreferences], "the file is read again, and the page says so") {
                $0.settingsProblem != nil && $0.notice?.text.contains("again") == true
            }
        case (.problem, .resetSettings):
            state.settingsProblem = "settings.json line 1, column 2: x — y"
            return expect("the reset is asked about, Cancel focused") { $0.dialog == .resetSettings(focus: .cancel) }
        case (.problem, .help):
            state.settingsProblem = "settings.json line 1, column 2: x — y"
            return expect("the help screen opens at its top") { $0.screen == .help(scroll: 0) && $0.settingsProblem != nil }
        case (.page, .quit), (.dialog, .quit), (.list, .quit), (.screen, .quit), (.wizard, .quit), (.problem, .quit):
            if context == .problem { state.settingsProblem = "settings.json line 1, column 2: x — y" }
            if context == .dialog { state.dialog = .permission(focus: .allow, reason: .requested) }
            if context == .list { state.dialog = .soundList(selected: .default) }
            if context == .screen { state.screen = .help(scroll: 0) }
            if context == .wizard { state.screen = .onboarding(.welcome, focus: .next) }
            let before = state
            return expect([.quit], "quits and changes nothing") { $0 == before }
        case (.dialog, .previous), (.dialog, .next):
            state.dialog = .permission(focus: .allow, reason: .requested)
            return expect("the other button is focused") { $0.dialog == .permission(focus: .deny, reason: .requested) }
        case (.dialog, .activate), (.dialog, .allow):
            state.dialog = .permission(focus: .allow, reason: .requested)
            state.preferences.permission = .notDetermined
            return expect([.commit([.permission(.granted)])], "permission is granted and the prompt closes") {
                $0.dialog == nil && $0.preferences.permission == .granted
            }
        case (.dialog, .deny):
            state.dialog = .permission(focus: .allow, reason: .requested)
            return expect([.commit([.permission(.denied)])], "permission is denied and the prompt closes") {
                $0.dialog == nil && $0.preferences.permission == .denied
            }
        case (.dialog, .close):
            state.dialog = .permission(focus: .allow, reason: .requested)
            state.preferences.permission = .notDetermined
            return expect("the prompt closes, nothing decided") { $0.dialog == nil && $0.preferences.permission == .notDetermined }
        case (.list, .previous):
            state.dialog = .soundList(selected: .bell)
            return expect("the previous sound is highlighted") { $0.dialog == .soundList(selected: .chime) }
        case (.list, .next):
            state.dialog = .soundList(selected: .default)
            return expect("the next sound is highlighted") { $0.dialog == .soundList(selected: .chime) }
        case (.list, .activate):
            state.dialog = .soundList(selected: .bell)
            return expect([.commit([.sound(.bell)])], "the highlighted sound is chosen and the list closes") {
                $0.dialog == nil && $0.preferences.sound == .bell
            }
        case (.list, .close):
            state.dialog = .soundList(selected: .bell)
            return expect("the list closes, the sound unchanged") { $0.dialog == nil && $0.preferences.sound == .default }
        case (.screen, .previous):
            state.screen = .help(scroll: 2)
            return expect("help scrolls up one line") { $0.screen == .help(scroll: 1) }
        case (.screen, .next):
            state.screen = .help(scroll: 0)
            return expect("help scrolls down one line") { $0.screen == .help(scroll: 1) }
        case (.screen, .close):
            state.screen = .help(scroll: 0)
            return expect("back to the page") { $0.screen == .page }
        case (.confirm, .previous), (.confirm, .next):
            state.unsaved = [.toggle(.promotions, true)]
            state.dialog = .quitUnsaved(focus: .saveAgain)
            return expect("the other answer is focused") { $0.dialog == .quitUnsaved(focus: .quitAnyway) }
        case (.confirm, .activate):
            state.unsaved = [.toggle(.promotions, true)]
            state.dialog = .quitUnsaved(focus: .quitAnyway)
            return expect([.quit], "Quit anyway quits (the shell says what was not saved)") { $0.dialog == nil }
        case (.confirm, .close):
            state.unsaved = [.toggle(.promotions, true)]
            state.dialog = .quitUnsaved(focus: .saveAgain)
            return expect("back to the page, the change kept") { $0.dialog == nil && $0.unsaved == [.toggle(.promotions, true)] }
        case (.screen, .activate):
            state.screen = .history(HistoryView(content: .records([DeliveryRecord(time: "2026-11-30T09:00:01+01:00",
                day: CivilDate(year: 2026, month: 11, day: 30), reminder: "tips-and-updates", kind: .scheduled, outcome: .delivered, detail: "shown")])))
            return expect("the highlighted entry opens whole") { $0.dialog == .historyEntry(0) }
        case (_, .quitNow), (_, .suspend):
            // Ctrl-C and Ctrl-Z act from anywhere, whatever is open, and change nothing else.
            if context == .dialog { state.dialog = .permission(focus: .allow, reason: .requested) }
            if context == .confirm { state.unsaved = [.toggle(.promotions, true)]; state.dialog = .quitUnsaved(focus: .saveAgain) }
            if context == .list { state.dialog = .soundList(selected: .default) }
            if context == .screen { state.screen = .help(scroll: 0) }
            if context == .wizard { state.screen = .onboarding(.welcome, focus: .next) }
            if context == .problem { state.settingsProblem = "settings.json line 1, column 2: x — y" }
            let before = state
            return expect([command == .quitNow ? .quit : .suspend], command == .quitNow ? "quits at once" : "suspends") { $0 == before }
        case (.wizard, .previous), (.wizard, .next):
            state.screen = .onboarding(.guestReminders, focus: .next)
            state.wizardFocus = .turnOn
            return expect("the other button is focused") { $0.wizardFocus == .notNow }
        case (.wizard, .activate):
            state.screen = .onboarding(.guestReminders, focus: .next)
            state.wizardFocus = .turnOn
            state.preferences.onboardingCompleted = false
            return expect([.commit([.toggle(.tipsAndUpdates, true), .onboardingCompleted])],
                          "Tips & Updates turns on and onboarding ends on the page") {
                $0.preferences[.tipsAndUpdates] && $0.preferences.onboardingCompleted && $0.screen == .page
            }
        default:
            return nil
        }
    }
}

@Suite struct TooSmallTests {
    @Test(arguments: [TerminalSize(width: 30, height: 8), TerminalSize(width: 20, height: 5), TerminalSize(width: 47, height: 30), TerminalSize(width: 100, height: 15)])
    func tooSmallScreenNamesTheNeededSize(size: TerminalSize) {
        let s = Script(preferences: .with { _ in }, size: size)
        let text = s.screen
        #expect(text.lowercased().contains("too small"))
        #expect(text.contains("48"))
        #expect(!text.contains("Push Notifications"))
        if size == TerminalSize(width: 30, height: 8) { assertSnapshot(s.canvas, named: "too-small-30x8") }
        if size == TerminalSize(width: 20, height: 5) { assertSnapshot(s.canvas, named: "too-small-20x5") }
    }

    @Test func keysWaitWhileTooSmallButQuitWorksAndEnlargingRestoresThePage() {
        var s = Script(preferences: .with { _ in }, size: TerminalSize(width: 30, height: 8))
        #expect(s.press(.char(" ")).isEmpty)
        #expect(s.press(.down).isEmpty && s.state.focus == .toggle(.pushNotifications))
        s.send(.resize(TerminalSize(width: 80, height: 24)))
        #expect(s.screen.contains("Push Notifications"))
        s.send(.resize(TerminalSize(width: 30, height: 8)))
        #expect(s.press(.char("q")) == [.quit])
    }

    @Test func theMinimumSizeFitsEverything() {
        let s = Script(preferences: .with { _ in }, size: SettingsApp.minimumSize)
        let text = s.screen
        for label in ["Notifications", "Push Notifications", "Tips & Updates", "Queue alerts", "Promotions", "Sound", "Vibration", "Next reminder:", "q quit"] {
            #expect(text.contains(label), "missing \(label)")
        }
        assertSnapshot(s.canvas, named: "page-minimum")
    }
}

@Suite struct AccountHistoryScreenTests {
    @Test func serverHistoryIsListedAndACachedCopyIsMarked() {
        var s = Script(preferences: .with { $0.mode = .account; $0.accountServer = "https://example.org" })
        #expect(s.press(.char("H")) == [.loadHistory])
        s.send(.historyLoaded(.server([
            ServerNotification(id: "4", title: "Your table is ready", body: "Queue 12", sentAt: "2026-11-29T18:00:00Z"),
            ServerNotification(id: "5", title: "Weekend offer", body: "", sentAt: "2026-11-28T10:00:00Z"),
        ], note: nil)))
        let text = s.screen
        #expect(text.contains("2026-11-29 18:00  Your table is ready  Queue 12"))
        #expect(text.contains("Weekend offer"))
        assertSnapshot(s.canvas, named: "history-account")
        s.send(.historyLoaded(.server([ServerNotification(id: "6", title: "Your table is ready", body: "", sentAt: "2026-11-29T18:00:00Z")],
                                      note: "Cached copy from 2026-11-29T19:00:00+01:00: cannot reach the server")))
        #expect(s.screen.contains("Cached copy from 2026-11-29T19:00:00+01:00"))
        s.send(.historyLoaded(.failed("the server refused the auth token (401); log in again")))
        #expect(s.screen.contains("Could not read the history: the server refused the auth token (401)"))
    }

    @Test func theAccountPageNamesTheServer() {
        let s = Script(preferences: .with { $0.mode = .account; $0.accountServer = "https://example.org" })
        #expect(s.screen.contains("Server: https://example.org"))
    }
}
