import SharedLogic

/// What keys do in the onboarding wizard.
extension AppState {
    /// The buttons a wizard page offers, left to right.
    public var wizardButtons: [Button] {
        switch onboardingStep {
        case .welcome: return [.next]
        // Already on (set before, with `notif set`): nothing to offer, only to go on.
        case .guestReminders: return preferences[.tipsAndUpdates] ? [.next] : [.turnOn, .notNow]
        case .accountPermission: return [.next]
        case nil: return []
        }
    }

    mutating func wizardCommand(_ command: Command, effects: inout [Effect]) {
        let buttons = wizardButtons
        switch command {
        case .previous, .next:
            guard let index = buttons.firstIndex(of: wizardFocus) else { wizardFocus = buttons.first ?? .next; return }
            wizardFocus = buttons[(index + (command == .next ? 1 : buttons.count - 1)) % buttons.count]
        case .activate: press(wizardFocus, effects: &effects)
        case .quit, .close: requestQuit(effects: &effects)
        default: break
        }
    }

    mutating func press(_ button: Button, effects: inout [Effect]) {
        switch onboardingStep {
        case .welcome:
            if preferences.mode == .account {
                screen = .onboarding(.accountPermission, focus: .next)
                // A permission already decided is never asked again: the page says what it is.
                if preferences.permission == .notDetermined {
                    dialog = .permission(focus: .allow, reason: .onboarding)
                }
            } else {
                screen = .onboarding(.guestReminders, focus: .next)
                wizardFocus = wizardButtons.first ?? .next
            }
        case .guestReminders:
            if button == .turnOn && !preferences[OnboardingOffer.toggle] {
                // Turning it on follows the Guest prompt rules; after the prompt the wizard page
                // says what came of it and Continue finishes.
                change(.toggle(OnboardingOffer.toggle, true), effects: &effects)
                if dialog == nil { finishOnboarding(effects: &effects) }
            } else {
                finishOnboarding(effects: &effects)
            }
        case .accountPermission:
            finishOnboarding(effects: &effects)
        case nil:
            break
        }
    }

    /// After the wizard's permission prompt: back on the wizard page, its Continue focused, so
    /// the next Enter finishes the wizard (it never lands on the page's first switch unseen).
    mutating func backToTheWizard() {
        wizardFocus = wizardButtons.first ?? .next
    }

    mutating func finishOnboarding(effects: inout [Effect]) {
        preferences.onboardingCompleted = true
        save([.onboardingCompleted], effects: &effects)
        if exitAfterOnboarding {
            leavingWhenScheduled = true
            requestQuit(effects: &effects)
        } else {
            screen = .page
            focus = .toggle(.pushNotifications)
            if notice == nil { notice = Notice("Welcome! Your settings are saved as you change them.") }
        }
    }
}
