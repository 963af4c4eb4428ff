/// A setting `notif set` can change, with the values it accepts.
public enum Setting: Equatable, Sendable {
    case toggle(PreferenceToggle)
    case sound
    /// Which scheduler holds the entries (`auto`, or one by name).
    case scheduler

    /// In page order: Push Notifications, Tips & Updates, Queue alerts, Promotions, Sound, Vibration,
    /// then the scheduler choice (shown in the page's status area).
    public static let all: [Setting] = all(in: .standard)

    /// The settings of `catalog`, in its order, then the scheduler choice.
    public static func all(in catalog: NotifCatalog) -> [Setting] {
        catalog.items.map { item in
            item.toggle.map(Setting.toggle) ?? .sound
        } + [.scheduler]
    }

    /// The command-line name (`tips-and-updates`, `sound`).
    public var name: String {
        switch self {
        case .toggle(let toggle): return toggle.name
        case .sound: return "sound"
        case .scheduler: return "scheduler"
        }
    }

    public var label: String {
        switch self {
        case .toggle(let toggle): return toggle.label
        case .sound: return CatalogItem.sound.label
        case .scheduler: return "Scheduler choice"
        }
    }

    /// The accepted values, as `notif help set` lists them.
    public var values: [String] {
        switch self {
        case .toggle: return ["on", "off"]
        case .sound: return NotificationSound.allCases.map(\.rawValue)
        case .scheduler: return SchedulerPreference.allCases.map(\.rawValue)
        }
    }

    public init?(name: String) { self.init(name: name, in: .standard) }

    /// The setting `notif set` calls `name` in `catalog`.
    public init?(name: String, in catalog: NotifCatalog) {
        guard let found = Self.all(in: catalog).first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// The preferences with this setting changed to `value`; nil when the value is not one of `values`.
    public func applying(_ value: String, to preferences: NotificationPreferences) -> NotificationPreferences? {
        var result = preferences
        switch self {
        case .toggle(let toggle):
            guard value == "on" || value == "off" else { return nil }
            result[toggle] = value == "on"
        case .sound:
            guard let sound = NotificationSound(rawValue: value) else { return nil }
            result.sound = sound
        case .scheduler:
            guard let scheduler = SchedulerPreference(rawValue: value) else { return nil }
            result.scheduler = scheduler
        }
        return result
    }

    /// The current value as `notif set` would spell it.
    public func value(in preferences: NotificationPreferences) -> String {
        switch self {
        case .toggle(let toggle): return preferences[toggle] ? "on" : "off"
        case .sound: return preferences.sound.rawValue
        case .scheduler: return preferences.scheduler.rawValue
        }
    }
}
