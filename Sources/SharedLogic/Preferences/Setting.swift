/// A setting `notif set` can change, with the values it accepts.
public enum Setting: Equatable, Sendable {
    case toggle(PreferenceToggle)
    case sound

    /// In page order: Push Notifications, Tips & Updates, Queue alerts, Promotions, Sound, Vibration.
    public static let all: [Setting] = [
        .toggle(.pushNotifications), .toggle(.tipsAndUpdates), .toggle(.queueAlerts), .toggle(.promotions),
        .sound, .toggle(.vibration),
    ]

    /// The command-line name (`tips-and-updates`, `sound`).
    public var name: String {
        switch self {
        case .toggle(let toggle): return toggle.rawValue
        case .sound: return "sound"
        }
    }

    public var label: String {
        switch self {
        case .toggle(let toggle): return toggle.label
        case .sound: return "Sound"
        }
    }

    /// The accepted values, as `notif help set` lists them.
    public var values: [String] {
        switch self {
        case .toggle: return ["on", "off"]
        case .sound: return NotificationSound.allCases.map(\.rawValue)
        }
    }

    public init?(name: String) {
        guard let found = Self.all.first(where: { $0.name == name }) else { return nil }
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
        }
        return result
    }

    /// The current value as `notif set` would spell it.
    public func value(in preferences: NotificationPreferences) -> String {
        switch self {
        case .toggle(let toggle): return preferences[toggle] ? "on" : "off"
        case .sound: return preferences.sound.rawValue
        }
    }
}
