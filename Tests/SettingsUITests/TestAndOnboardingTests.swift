import Testing
import SharedLogic
@testable import SettingsUI
import TestSupport

/// `t` asks before a test while nobody has decided; onboarding never asks a decided permission;
/// "Don't allow" leaves a page that says the reminder is blocked.
@Suite struct TestAndOnboardingTests {
    @Test func testWhileNotDecidedAsksFirstAndSendsOnceAllowedAndSaved() {
        var s = Script(preferences: .with { _ in })
        s.settles = false
        #expect(s.press(.char("t")).isEmpty)
        #expect(s.state.dialog == .permission(focus: .allow, reason: .test))
        #expect(s.screen.contains("A test is sent"))
        // Allow: the permission is saved first; the test goes once the save is done.
        #expect(s.press(.char("a")) == [.commit([.permission(.granted)])])
        #expect(s.send(.saved(s.state.preferences)).contains(.sendTest))
    }

    @Test func testWhileNotDecidedAndNotAllowedSendsNothing() {
        var s = Script(preferences: .with { _ in })
        s.press(.char("t"))
        #expect(s.press(.char("d")) == [.commit([.permission(.denied)])])
        #expect(!s.effects.contains(.sendTest) && !s.settled.contains(.sendTest))
        #expect(s.screen.contains("Test not sent: permission is Don't allow"))
        var e = Script(preferences: .with { _ in })
        e.press(.char("t"))
        #expect(e.press(.escape).isEmpty)
        #expect(e.screen.contains("Test not sent: permission is Not decided"))
        var denied = Script(preferences: .with { $0.permission = .denied })
        #expect(denied.press(.char("t")).isEmpty && denied.state.dialog == nil)
        #expect(denied.screen.contains("Test not sent: permission is Don't allow (p changes it)."))
    }

    @Test func accountOnboardingDoesNotAskADecidedPermission() {
        for permission in [NotificationPermission.granted, .denied] {
            var p = NotificationPreferences()
            p.mode = .account
            p.permission = permission
            var s = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                          unicode: true, onboarding: true))
            s.press(.enter)
            #expect(s.state.dialog == nil, "\(permission) asked again")
            #expect(s.screen.contains("Permission: \(permission.word). You decided this before"))
            #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
            #expect(s.state.screen == .page)
        }
    }

    /// On, but on a scheduler that cannot fire it: the wizard says so, as the page's status
    /// area will, rather than only that it is on (trial 37).
    @Test func onboardingSaysWhenTheReminderCannotFire() {
        var stopped = SchedulerStatus(scheduler: .embedded, installed: ["tips-and-updates"], nextFire: SchedulerStatus.nine)
        stopped.facts.schedulerCannotFire = .daemonNotRunning
        var s = Script(AppState.start(preferences: .tipsOnAndAllowed, status: stopped, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true))
        s.press(.enter)
        #expect(s.screen.contains("Next reminder: none — cannot fire: notif daemon is not running"), "\(s.screen)")
        #expect(s.screen.contains("the keys named above work there"), "\(s.screen)")
    }

    /// Tips & Updates turned on before the first page (`notif set tips-and-updates on`): the
    /// wizard says it is on and offers only to go on, not to turn it on.
    @Test func onboardingDoesNotOfferToTurnOnWhatIsAlreadyOn() {
        let p = NotificationPreferences.tipsOnAndAllowed
        var s = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true))
        s.press(.enter)
        #expect(s.state.onboardingStep == .guestReminders)
        #expect(s.state.wizardButtons == [.next] && s.state.wizardFocus == .next)
        #expect(s.screen.contains("Tips & Updates is on: a daily reminder at 09:00"), "\(s.screen)")
        #expect(s.screen.contains("Next reminder: Mon 30 Nov 09:00"), "\(s.screen)")
        #expect(!s.screen.contains("Turn on Tips & Updates"), "\(s.screen)")
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        #expect(s.state.screen == .page && s.state.preferences[.tipsAndUpdates])
        // Off, it is offered as before.
        var off = Script(AppState.start(preferences: NotificationPreferences(), status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                        unicode: true, onboarding: true))
        off.press(.enter)
        #expect(off.state.wizardButtons == [.turnOn, .notNow] && off.screen.contains("Turn on Tips & Updates now?"))
    }

    /// A TZ that names no zone: the page's status area says its times are UTC, naming the value.
    @Test func aTZThatNamesNoZoneIsSaidOnThePage() {
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted })
        #expect(!s.screen.contains("TZ="))
        s.state.zoneProblem = "TZ=Nowhere/Zone is not a time zone notif can find: times are in UTC"
        #expect(s.screen.contains("! TZ=Nowhere/Zone is not a time zone notif can find: times are in UTC"), "\(s.screen)")
    }

    @Test func dontAllowInOnboardingLeavesAPageThatSaysBlocked() {
        var p = NotificationPreferences()
        p.mode = .guest
        var s = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true))
        s.press(.enter, .enter)
        #expect(s.press(.char("d")) == [.commit([.permission(.denied)])])
        #expect(s.screen.contains("Don't allow): nothing is scheduled until you allow them."), "\(s.screen)")
        #expect(s.press(.enter) == [.commit([.onboardingCompleted])])
        let text = s.screen
        #expect(text.contains("[x] Tips & Updates       Blocked: press p"))
        #expect(text.contains("Next reminder: none — blocked: permission is Don't allow (p changes it)"))
        #expect(text.contains("Permission: Don't allow"))
        // p changes it.
        s.press(.char("p"))
        #expect(s.press(.char("a")) == [.commit([.permission(.granted)])])
        #expect(s.screen.contains("[x] Tips & Updates       Daily at 09:00"))
    }
}

/// The wizard's own page says what came of the prompt, so the page it leaves opens with the
/// welcome, not a stray `Permission: Allow.` under the warnings (trial 37, N8).
@Suite struct OnboardingNoticeTests {
    @Test func allowingInTheWizardLeavesTheWelcome() {
        var s = Script(AppState.start(preferences: NotificationPreferences(), status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true))
        s.press(.enter, .enter)
        s.press(.char("a"))
        s.send(.saved(s.state.preferences))
        s.press(.enter)
        #expect(s.state.screen == .page)
        #expect(s.state.notice?.text.hasPrefix("Welcome!") == true, "\(s.screen)")
        #expect(!s.screen.contains("Permission: Allow."), "\(s.screen)")
    }
}
