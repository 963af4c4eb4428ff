import Testing
import SharedLogic
@testable import SettingsUI

@Suite struct PermissionPromptTests {
    var fresh: Script { Script(preferences: .with { _ in }) }

    @Test func turningTipsOnWithTheMasterOnAsksOnce() {
        var s = fresh
        #expect(s.press(.down, .char(" ")) == [.commit([.toggle(.tipsAndUpdates, true)])])
        #expect(s.state.dialog == .permission(focus: .allow, reason: .firstReminder))
        let canvas = s.canvas
        #expect(canvas.text.contains("Allow notifications?") && canvas.text.contains("[ Allow ]") && canvas.text.contains("Don't allow"))
        assertSnapshot(canvas, named: "permission-prompt")
    }

    @Test func allowGrantsAndSchedules() {
        var s = fresh
        s.press(.down, .char(" "))
        #expect(s.press(.enter) == [.commit([.permission(.granted)])])
        #expect(s.state.preferences.permission == .granted && s.state.dialog == nil)
        #expect(s.screen.contains("Next reminder: Mon 30 Nov 09:00"))
        #expect(s.screen.contains("Permission: Allow."))
    }

    @Test func dontAllowDeniesAndThePageSaysBlockedAndHowToChange() {
        for keys: [Key] in [[.right, .enter], [.char("d")], [.tab, .char(" ")], [.char("l"), .enter]] {
            var s = fresh
            s.press(.down, .char(" "))
            var effects: [Effect] = []
            for key in keys { effects += s.press(key) }
            #expect(effects == [.commit([.permission(.denied)])], "\(keys)")
            let text = s.screen
            #expect(text.contains("Next reminder: none — blocked: permission is Don't allow (p changes it)"))
            #expect(text.contains("Permission is Don't allow: reminders are blocked and nothing is scheduled."))
            #expect(text.contains("[x] Tips & Updates       Blocked: press p"), "the row itself says it is blocked")
        }
        var s = fresh
        s.press(.down, .char(" "), .char("d"))
        assertSnapshot(s.canvas, named: "page-denied")
    }

    @Test func escapeLeavesItUndecidedAndSaysPermissionIsNeeded() {
        var s = fresh
        s.press(.down, .char(" "))
        #expect(s.press(.escape).isEmpty)
        #expect(s.state.preferences.permission == .notDetermined && s.state.dialog == nil)
        let text = s.screen
        #expect(text.contains("Next reminder: none — permission is Not decided (press p)"))
        #expect(text.contains("Permission is Not decided: nothing is scheduled until you allow notifications"))
        #expect(text.contains("[x] Tips & Updates       Needs permission: p"))
        // Still undecided, so turning it on again asks again.
        s.press(.char(" "), .char(" "))
        #expect(s.state.dialog != nil)
    }

    @Test func masterOnWithTipsAlreadyOnAsksToo() {
        var s = Script(preferences: .with { $0[.pushNotifications] = false; $0[.tipsAndUpdates] = true })
        s.press(.char(" "))
        #expect(s.state.dialog == .permission(focus: .allow, reason: .firstReminder))
    }

    @Test func neverShownAgainOnItsOwnOnceDecided() {
        for decision in [Key.char("a"), .char("d")] {
            var s = fresh
            s.press(.down, .char(" "), decision)
            for key in [Key.char(" "), .char(" "), .up, .char(" "), .char(" ")] {
                s.press(key)
                #expect(s.state.dialog == nil)
            }
        }
    }

    @Test func otherSettingsNeverAsk() {
        var s = fresh
        s.press(.down, .down, .char(" "), .down, .char(" "), .down, .right, .down, .char(" "))
        #expect(s.state.dialog == nil)
    }

    @Test func pOpensItAnyTimeAndChangesTheDecision() {
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .denied })
        #expect(s.press(.char("p")).isEmpty)
        #expect(s.state.dialog == .permission(focus: .allow, reason: .requested))
        #expect(s.press(.char("a")) == [.commit([.permission(.granted)])])
        s.press(.char("p"))
        #expect(s.press(.escape).isEmpty)
        #expect(s.state.preferences.permission == .granted)
        #expect(!s.screen.contains("Not decided"))
    }

    @Test func clicksOnButtonsAndRowsActLikeEnterAndSpace() {
        var s = fresh
        let tipsRow = try! #require(s.canvas.row(containing: "Tips & Updates"))
        #expect(s.send(.click(row: tipsRow, column: 10)) == [.commit([.toggle(.tipsAndUpdates, true)])])
        #expect(s.state.focus == .toggle(.tipsAndUpdates))
        let canvas = s.canvas
        let buttonRow = try! #require(canvas.row(containing: "Don't allow"))
        let column = canvas.text(ofRow: buttonRow).range(of: "Don't allow").map { canvas.text(ofRow: buttonRow).distance(from: canvas.text(ofRow: buttonRow).startIndex, to: $0.lowerBound) }!
        #expect(s.send(.click(row: buttonRow, column: column + 2)) == [.commit([.permission(.denied)])])
        #expect(s.send(.click(row: 0, column: 0)).isEmpty, "the title is not clickable")
    }

    @Test func clicksOnTheSoundListChooseAndDisabledRowsIgnoreClicks() {
        var s = fresh
        s.press(.down, .down, .down, .down, .enter)
        let canvas = s.canvas
        let bellRow = try! #require(canvas.row(containing: "bell"))
        #expect(s.send(.click(row: bellRow, column: PageScreen.detailColumn + 2)) == [.commit([.sound(.bell)])])
        var off = Script(preferences: .with { $0[.pushNotifications] = false })
        let queueRow = try! #require(off.canvas.row(containing: "Queue alerts"))
        #expect(off.send(.click(row: queueRow, column: 10)).isEmpty)
    }
}

@Suite struct OnboardingTests {
    func start(_ mode: ProjectMode, exit: Bool = false) -> Script {
        var p = NotificationPreferences()
        p.mode = mode
        return Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                     unicode: true, onboarding: true, exitAfterOnboarding: exit))
    }

    @Test func guestTurningTipsOnFollowsThePromptRules() {
        var s = start(.guest)
        assertSnapshot(s.canvas, named: "onboarding-welcome")
        s.press(.enter)
        #expect(s.state.onboardingStep == .guestReminders)
        assertSnapshot(s.canvas, named: "onboarding-guest")
        #expect(s.press(.enter) == [.commit([.toggle(.tipsAndUpdates, true)])])
        #expect(s.state.dialog == .permission(focus: .allow, reason: .onboarding))
        #expect(s.press(.enter) == [.commit([.permission(.granted)])])
        // Back on the wizard page, which says what came of it, its Continue focused: the next
        // Enter finishes the wizard and never lands on the page's first switch unseen.
        #expect(s.state.onboardingStep == .guestReminders && s.state.wizardFocus == .next)
        #expect(s.screen.contains("Tips & Updates is on: a daily reminder at 09:00"))
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.state.screen == .page && s.state.preferences.onboardingCompleted && s.state.preferences[.pushNotifications])
        #expect(s.screen.contains("Next reminder: Mon 30 Nov 09:00"))
    }

    @Test func guestNotNowFinishesWithoutAsking() {
        var s = start(.guest)
        s.press(.enter, .right)
        #expect(s.state.wizardFocus == .notNow)
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.state.screen == .page && !s.state.preferences[.tipsAndUpdates] && s.state.dialog == nil)
    }

    /// The prompt stands alone on the wizard's screen: no outcome text and no second set of
    /// buttons behind it; they come back once it is answered.
    @Test(arguments: [ProjectMode.guest, .account])
    func thePromptIsAloneOnScreen(mode: ProjectMode) {
        var s = start(mode)
        s.press(.enter)
        if mode == .guest { s.press(.enter) }
        #expect(s.state.dialog == .permission(focus: .allow, reason: .onboarding))
        let canvas = s.canvas
        let top = try! #require(canvas.row(containing: PermissionPrompt.title))
        let bottom = try! #require((top + 1..<canvas.height).first { canvas.text(ofRow: $0).contains("└") })
        for row in 2..<(canvas.height - 1) where !(top...bottom).contains(row) {
            #expect(canvas.text(ofRow: row).isEmpty, "row \(row) behind the prompt: \(canvas.text(ofRow: row))")
        }
        for button in s.state.wizardButtons {
            #expect(!canvas.hotspots.contains { $0.target == .button(button) }, "\(button) is clickable behind the prompt")
        }
        if mode == .guest { assertSnapshot(canvas, named: "onboarding-guest-prompt") }
        s.press(.char("a"))
        #expect(s.state.dialog == nil && s.screen.contains("[ Continue ]"))
    }

    @Test(arguments: [Key.escape, .char("q")])
    func guestClosingThePromptStillFinishes(key: Key) {
        var s = start(.guest)
        s.press(.enter, .enter)
        #expect(s.press(key) == [])
        #expect(s.state.dialog == nil && s.state.onboardingStep == .guestReminders, "q closes the prompt, as the keys table says")
        #expect(s.screen.contains("Not decided): nothing is scheduled until you allow them."), "\(s.screen)")
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.state.preferences.permission == .notDetermined)
    }

    @Test func accountAsksPermissionWithTheSamePrompt() {
        var s = start(.account)
        s.press(.enter)
        #expect(s.state.dialog == .permission(focus: .allow, reason: .onboarding))
        assertSnapshot(s.canvas, named: "onboarding-account")
        #expect(s.press(.char("d")) == [.commit([.permission(.denied)])])
        #expect(s.state.onboardingStep == .accountPermission && s.screen.contains("Permission: Don't allow"))
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.state.screen == .page)
        let text = s.screen
        #expect(text.contains("Account project"))
        #expect(text.contains("Tips & Updates reminders are a Guest feature"))
    }

    @Test func accountTipsNeverAskAndScheduleNothing() {
        var s = Script(preferences: .with { $0.mode = .account; $0.permission = .granted })
        s.press(.down, .char(" "))
        #expect(s.state.dialog == nil)
        #expect(s.screen.contains("Next reminder: none — Account project"))
        assertSnapshot(s.canvas, named: "page-account")
    }

    @Test func onboardingCommandLeavesWhenDone() {
        var s = start(.guest, exit: true)
        s.press(.enter, .right)
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.settled.contains(.quit), "it leaves once the save is done")
    }

    @Test func quittingOnboardingDoesNotCompleteIt() {
        var s = start(.guest)
        #expect(s.press(.char("q")) == [.quit])
        #expect(!s.state.preferences.onboardingCompleted)
    }

    @Test func wizardButtonsRespondToClicks() {
        var s = start(.guest)
        s.press(.enter)
        let canvas = s.canvas
        let row = try! #require(canvas.row(containing: "Not now"))
        let line = canvas.text(ofRow: row)
        let column = line.distance(from: line.startIndex, to: line.range(of: "Not now")!.lowerBound)
        #expect(s.send(.click(row: row, column: column)) == [.commit([.onboardingCompleted])])
    }
}
