import Testing
import SharedLogic
@testable import SettingsUI

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

    @Test func dontAllowInOnboardingLeavesAPageThatSaysBlocked() {
        var p = NotificationPreferences()
        p.mode = .guest
        var s = Script(AppState.start(preferences: p, status: .cronFiring, size: TerminalSize(width: 80, height: 24),
                                      unicode: true, onboarding: true))
        s.press(.enter, .enter)
        #expect(s.press(.char("d")) == [.commit([.permission(.denied), .onboardingCompleted])])
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
