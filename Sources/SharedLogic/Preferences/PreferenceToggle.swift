/// The on/off settings of the Notifications page, named as the command line spells them.
public enum PreferenceToggle: String, CaseIterable, Sendable {
    case pushNotifications = "push-notifications"
    case tipsAndUpdates = "tips-and-updates"
    case queueAlerts = "queue-alerts"
    case promotions
    case vibration

    /// The key in settings.json.
    public var jsonKey: String {
        switch self {
        case .pushNotifications: return "pushNotifications"
        case .tipsAndUpdates: return "tipsAndUpdates"
        case .queueAlerts: return "queueAlerts"
        case .promotions: return "promotions"
        case .vibration: return "vibration"
        }
    }

    /// The row label on the page.
    public var label: String {
        switch self {
        case .pushNotifications: return "Push Notifications"
        case .tipsAndUpdates: return "Tips & Updates"
        case .queueAlerts: return "Queue alerts"
        case .promotions: return "Promotions"
        case .vibration: return "Vibration"
        }
    }

    /// Whether the master switch governs this toggle.
    public var dependsOnMaster: Bool { self != .pushNotifications }
}
