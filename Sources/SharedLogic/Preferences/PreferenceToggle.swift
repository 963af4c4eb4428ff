/// An on/off setting of the Notifications page: the one record every surface reads (the command
/// line, settings.json, the page's row, `status`). A table may add toggles beyond notif's own five.
public struct PreferenceToggle: Hashable, Sendable, CustomStringConvertible {
    /// The command-line name (`tips-and-updates`).
    public let name: String
    /// The key in settings.json and in `status --json`'s `preferences`.
    public let jsonKey: String
    /// The page's row label, also `status`'s row.
    public let label: String
    /// The page's text beside the switch, for a toggle no reminder follows.
    public let detail: String
    /// Whether the master switch (Push Notifications) pauses it while off.
    public let dependsOnMaster: Bool
    /// Its value in a new settings file.
    public let defaultValue: Bool

    public init(_ name: String, jsonKey: String, label: String, detail: String = "", dependsOnMaster: Bool = true,
                defaultValue: Bool) {
        self.name = name
        self.jsonKey = jsonKey
        self.label = label
        self.detail = detail
        self.dependsOnMaster = dependsOnMaster
        self.defaultValue = defaultValue
    }

    public static let pushNotifications = PreferenceToggle(
        "push-notifications", jsonKey: "pushNotifications", label: "Push Notifications", detail: "Master switch",
        dependsOnMaster: false, defaultValue: true)
    public static let tipsAndUpdates = PreferenceToggle("tips-and-updates", jsonKey: "tipsAndUpdates", label: "Tips & Updates", defaultValue: false)
    public static let queueAlerts = PreferenceToggle(
        "queue-alerts", jsonKey: "queueAlerts", label: "Queue alerts", detail: "When your turn comes up", defaultValue: true)
    public static let promotions = PreferenceToggle("promotions", jsonKey: "promotions", label: "Promotions", detail: "Offers and news", defaultValue: false)
    public static let vibration = PreferenceToggle(
        "vibration", jsonKey: "vibration", label: "Vibration", detail: "Where the device supports it", defaultValue: true)

    public var description: String { name }
}
