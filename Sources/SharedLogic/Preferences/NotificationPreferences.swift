/// Everything the Notifications page saves, with the template's defaults (the toggles' from `NotifCatalog`).
public struct NotificationPreferences: Equatable, Sendable {
    /// The settings.json schema this build writes.
    public static let schemaVersion = 1

    public var mode: ProjectMode = .guest
    public var pushNotifications = true
    public var tipsAndUpdates = false
    public var queueAlerts = true
    public var promotions = false
    public var sound: NotificationSound = .default
    public var vibration = true
    public var permission: NotificationPermission = .notDetermined
    public var onboardingCompleted = false
    /// Which scheduler holds the entries: the person's saved choice (`auto` by default).
    public var scheduler: SchedulerPreference = .auto
    /// The Account server's base URL (`account.server`), when one was set.
    public var accountServer: String?
    /// Toggles a longer table adds beyond notif's own, by command-line name.
    public var otherToggles: [String: Bool] = [:]

    public init() { self.init(catalog: .standard) }

    /// The defaults of every toggle in `catalog`.
    public init(catalog: NotifCatalog) {
        for spec in catalog.toggles { self[spec.toggle] = spec.defaultValue }
    }

    public subscript(toggle: PreferenceToggle) -> Bool {
        get {
            switch toggle {
            case .pushNotifications: return pushNotifications
            case .tipsAndUpdates: return tipsAndUpdates
            case .queueAlerts: return queueAlerts
            case .promotions: return promotions
            case .vibration: return vibration
            default: return otherToggles[toggle.rawValue] ?? false
            }
        }
        set {
            switch toggle {
            case .pushNotifications: pushNotifications = newValue
            case .tipsAndUpdates: tipsAndUpdates = newValue
            case .queueAlerts: queueAlerts = newValue
            case .promotions: promotions = newValue
            case .vibration: vibration = newValue
            default: otherToggles[toggle.rawValue] = newValue
            }
        }
    }
}
