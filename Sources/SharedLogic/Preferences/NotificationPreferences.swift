/// Everything the Notifications page saves, with the template's defaults (each toggle's in its record).
public struct NotificationPreferences: Equatable, Sendable {
    /// The settings.json schema this build writes.
    public static let schemaVersion = 1

    public var mode: ProjectMode = .guest
    public var sound: NotificationSound = .default
    public var permission: NotificationPermission = .notDetermined
    public var onboardingCompleted = false
    /// Which scheduler holds the entries: the person's saved choice (`auto` by default).
    public var scheduler: SchedulerPreference = .auto
    /// The Account server's base URL (`account.server`), when one was set.
    public var accountServer: String?
    /// The toggles that differ from their defaults, by command-line name.
    private var changedToggles: [String: Bool] = [:]

    /// The defaults of every toggle of any table.
    public init() {}

    public subscript(toggle: PreferenceToggle) -> Bool {
        get { changedToggles[toggle.name] ?? toggle.defaultValue }
        set { changedToggles[toggle.name] = newValue == toggle.defaultValue ? nil : newValue }
    }
}
