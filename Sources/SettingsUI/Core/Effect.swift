import SharedLogic

/// One change to the saved settings, applied by the shell as a locked read-modify-write so a
/// change made by another process at the same time is not lost.
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
}

/// Work the pure core asks the shell to do; results come back as `Action`s.
public enum Effect: Equatable, Sendable {
    /// Save the changes, then reconcile the scheduler (`LocalReminders.apply`).
    case commit([PreferenceChange])
    /// Reconcile again after a failure.
    case retryApply
    /// Show a test notification through the delivery path.
    case sendTest
    case loadHistory
    case quit
}
