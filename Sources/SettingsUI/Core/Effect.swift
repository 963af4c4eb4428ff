import SharedLogic

/// One change to the saved settings, applied by the shell as a locked read-modify-write so a
/// change made by another process at the same time is not lost. Every change sets a value (none
/// flips one), so saving a change twice is harmless and the later of two changes to the same
/// setting is the one that counts.
public enum PreferenceChange: Equatable, Sendable {
    case toggle(PreferenceToggle, Bool)
    case sound(NotificationSound)
    case permission(NotificationPermission)
    case onboardingCompleted
    /// The saved scheduler choice (made in the chooser).
    case scheduler(SchedulerPreference)

    public func applied(to preferences: NotificationPreferences) -> NotificationPreferences {
        var result = preferences
        switch self {
        case .toggle(let toggle, let value): result[toggle] = value
        case .sound(let sound): result.sound = sound
        case .permission(let permission): result.permission = permission
        case .onboardingCompleted: result.onboardingCompleted = true
        case .scheduler(let choice): result.scheduler = choice
        }
        return result
    }

    /// Whether `other` sets the same value as this one (so the later of the two wins).
    public func setsSameValue(as other: PreferenceChange) -> Bool {
        switch (self, other) {
        case (.toggle(let a, _), .toggle(let b, _)): return a == b
        case (.sound, .sound), (.permission, .permission), (.onboardingCompleted, .onboardingCompleted), (.scheduler, .scheduler):
            return true
        default: return false
        }
    }

    /// The change in words (`Tips & Updates on`, `Permission: Allow`), for what was not saved.
    public var summary: String {
        switch self {
        case .toggle(let toggle, let value): return "\(toggle.label) \(value ? "on" : "off")"
        case .sound(let sound): return "Sound \(sound.rawValue)"
        case .permission(let permission): return "Permission: \(permission.word)"
        case .onboardingCompleted: return "onboarding completed"
        case .scheduler(let choice): return "Scheduler choice \(choice.rawValue)"
        }
    }
}

extension Array where Element == PreferenceChange {
    /// The changes in order, each setting only at its last change.
    public var lastOfEach: [PreferenceChange] {
        var result: [PreferenceChange] = []
        for change in self {
            result.removeAll { $0.setsSameValue(as: change) }
            result.append(change)
        }
        return result
    }

    /// `Tips & Updates on, Sound chime`.
    public var summary: String { map(\.summary).joined(separator: ", ") }
}

/// Work the pure core asks the shell to do. The shell runs all but `suspend` and `quit` off the
/// input loop, each kind in order, and posts the results back as `Action`s.
public enum Effect: Equatable, Sendable {
    /// Save the changes (in order with every other save). Answered by `.saved` or `.commitFailed`.
    case commit([PreferenceChange])
    /// Reconcile the scheduler with the saved settings (`LocalReminders.apply`). `choosing`: a
    /// scheduler was just chosen, so it is honoured even when it was the saved choice. Answered by `.applied`.
    case apply(choosing: Bool)
    /// Read the scheduler's state again without changing it. Answered by `.statusRefreshed`.
    case refreshStatus
    /// Look again at which schedulers can be used here and why (the chooser just opened).
    /// Answered by `.schedulersChecked`.
    case checkSchedulers
    /// Read the saved settings again (another process changed them). Answered by `.preferencesReloaded`.
    case reloadPreferences
    /// Account projects: retry a device registration that failed before (nothing comes back).
    case registerDevice
    /// Show a test notification through the delivery path. Answered by `.testFinished`.
    case sendTest
    /// Answered by `.historyLoaded`.
    case loadHistory
    /// Give the terminal back and stop (Ctrl-Z); the page is painted whole when it continues.
    case suspend
    /// Give the terminal to the person's editor for settings.json (`notif edit`), then read it
    /// again (answered as `.reloadPreferences` is).
    case editSettings
    /// Put the defaults in place of a settings.json that cannot be read, keeping it as a copy.
    /// Answered by `.preferencesReloaded` with where the copy is.
    case resetSettings
    case quit
}
