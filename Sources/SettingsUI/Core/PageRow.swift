import SharedLogic

/// The rows of the Notifications page, top to bottom.
public enum PageRow: Int, CaseIterable, Sendable {
    case pushNotifications, tipsAndUpdates, queueAlerts, promotions, sound, vibration

    public var setting: Setting {
        switch self {
        case .pushNotifications: return .toggle(.pushNotifications)
        case .tipsAndUpdates: return .toggle(.tipsAndUpdates)
        case .queueAlerts: return .toggle(.queueAlerts)
        case .promotions: return .toggle(.promotions)
        case .sound: return .sound
        case .vibration: return .toggle(.vibration)
        }
    }

    public var toggle: PreferenceToggle? {
        if case .toggle(let toggle) = setting { return toggle }
        return nil
    }

    /// Rows the master switch governs: kept but disabled (and skipped by focus) while it is off.
    public var dependsOnMaster: Bool { toggle.map { NotifCatalog.standard.spec($0).pausedByMaster } ?? true }

    public func isEnabled(in preferences: NotificationPreferences) -> Bool {
        !dependsOnMaster || preferences.pushNotifications
    }

    /// A short description shown beside the switch.
    public var detail: String { toggle.map(NotifCatalog.standard.detail) ?? "" }
}
