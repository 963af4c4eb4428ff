/// The on/off settings of the Notifications page, named as the command line spells them. What
/// each is called and does elsewhere is in `NotifCatalog`.
public enum PreferenceToggle: String, CaseIterable, Sendable {
    case pushNotifications = "push-notifications"
    case tipsAndUpdates = "tips-and-updates"
    case queueAlerts = "queue-alerts"
    case promotions
    case vibration

    /// The key in settings.json.
    public var jsonKey: String { NotifCatalog.standard.spec(self).jsonKey }

    /// The row label on the page.
    public var label: String { NotifCatalog.standard.spec(self).label }

    /// Whether the master switch governs this toggle.
    public var dependsOnMaster: Bool { NotifCatalog.standard.spec(self).pausedByMaster }
}
