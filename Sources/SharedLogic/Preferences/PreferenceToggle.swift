/// An on/off setting of the Notifications page, named as the command line spells it
/// (`tips-and-updates`). What each is called and does elsewhere is its `ToggleSpec` in the
/// `NotifCatalog`; a table may add toggles beyond notif's own five.
public struct PreferenceToggle: Hashable, Sendable, CustomStringConvertible {
    /// The command-line name.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let pushNotifications = PreferenceToggle("push-notifications")
    public static let tipsAndUpdates = PreferenceToggle("tips-and-updates")
    public static let queueAlerts = PreferenceToggle("queue-alerts")
    public static let promotions = PreferenceToggle("promotions")
    public static let vibration = PreferenceToggle("vibration")

    /// notif's own toggles, in page order.
    public static var allCases: [PreferenceToggle] { NotifCatalog.standard.toggles.map(\.toggle) }

    public var description: String { rawValue }

    /// The key in settings.json.
    public var jsonKey: String { spec?.jsonKey ?? rawValue }

    /// The row label on the page.
    public var label: String { spec?.label ?? rawValue }

    /// Whether the master switch governs this toggle.
    public var dependsOnMaster: Bool { spec?.pausedByMaster ?? true }

    private var spec: ToggleSpec? { NotifCatalog.standard.toggles.first { $0.toggle == self } }
}
