import SharedLogic

/// What keys do in the permission prompt and in the question asked when quitting with changes
/// that are not saved.
extension AppState {
    mutating func dialogCommand(_ command: Command, effects: inout [Effect]) {
        switch dialog {
        case .permission(let focused, let reason): permissionCommand(command, focused: focused, reason: reason, effects: &effects)
        case .quitUnsaved(let focused): quitUnsavedCommand(command, focused: focused, effects: &effects)
        case .resetSettings(let focused): resetCommand(command, focused: focused, effects: &effects)
        default: break
        }
    }

    mutating func permissionCommand(_ command: Command, focused: Button, reason: PromptReason, effects: inout [Effect]) {
        switch command {
        case .previous, .next:
            dialog = .permission(focus: focused == .allow ? .deny : .allow, reason: reason)
        case .activate: decide(focused == .allow, reason: reason, effects: &effects)
        case .allow: decide(true, reason: reason, effects: &effects)
        case .deny: decide(false, reason: reason, effects: &effects)
        case .close:
            dialog = nil
            let undecided = NotificationPermission.notDetermined.word
            switch reason {
            case .firstReminder:
                notice = Notice("Permission is \(undecided): nothing is scheduled until you allow notifications (press p).", warning: true)
            case .test:
                notice = Notice("Test not sent: permission is \(undecided) (press p).", warning: true)
            case .onboarding:
                backToTheWizard()
            case .requested:
                break
            }
        default: break
        }
    }

    mutating func decide(_ allow: Bool, reason: PromptReason, effects: inout [Effect]) {
        dialog = nil
        let permission: NotificationPermission = allow ? .granted : .denied
        let changed = permission != preferences.permission
        preferences.permission = permission
        if changed || !unsaved.isEmpty { save([.permission(permission)], effects: &effects) }
        // In the wizard its own page says what came of it; the page it leads to starts afresh.
        if onboardingStep == nil { notice = Notice("Permission: \(permission.word).", warning: !allow) }
        if reason == .onboarding { backToTheWizard() }
        if reason == .test {
            if allow { test(effects: &effects) } else { notice = Notice("Test not sent: permission is \(permission.word) (p changes it).", warning: true) }
        }
    }

    /// `Save again` tries once more and quits when it works; `Quit anyway` quits (the shell says
    /// what was not saved); Esc goes back to the page.
    mutating func quitUnsavedCommand(_ command: Command, focused: Button, effects: inout [Effect]) {
        switch command {
        case .previous, .next:
            dialog = .quitUnsaved(focus: focused == .saveAgain ? .quitAnyway : .saveAgain)
        case .activate: answerQuit(focused, effects: &effects)
        case .close: dialog = nil
        default: break
        }
    }

    mutating func answerQuit(_ button: Button, effects: inout [Effect]) {
        dialog = nil
        if button == .quitAnyway {
            effects.append(.quit)
            return
        }
        retrying = true
        notice = Notice("Saving again…")
        save([], effects: &effects)
        closing = true
    }

    /// `Reset to defaults` asks the shell to put the defaults in place (the old file is kept as a
    /// copy); `Cancel` and Esc leave everything as it is.
    mutating func resetCommand(_ command: Command, focused: Button, effects: inout [Effect]) {
        switch command {
        case .previous, .next:
            dialog = .resetSettings(focus: focused == .reset ? .cancel : .reset)
        case .activate:
            dialog = nil
            if focused == .reset {
                notice = Notice("Resetting to the defaults…")
                effects.append(.resetSettings)
            }
        case .close: dialog = nil
        default: break
        }
    }
}
