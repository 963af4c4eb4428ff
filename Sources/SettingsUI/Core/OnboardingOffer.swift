import SharedLogic

/// What the Guest onboarding offers to turn on: the first reminder of the table, by its toggle.
enum OnboardingOffer {
    static var reminder: LocalReminder { NotifCatalog.standard.reminders[0] }
    static var toggle: PreferenceToggle { reminder.preference }
}
