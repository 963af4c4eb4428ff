import SharedLogic

public extension NotificationPreferences {
    /// Tips & Updates on and notifications allowed: the settings that schedule the daily reminder.
    static var tipsOnAndAllowed: NotificationPreferences {
        var preferences = NotificationPreferences()
        preferences[.tipsAndUpdates] = true
        preferences.permission = .granted
        return preferences
    }
}
