/// One reminder notif can schedule on this machine: what it says, when, and which toggle asks for it.
public struct LocalReminder: Hashable, Sendable, Identifiable {
    /// Stable id used in scheduler entries and `notif deliver ID`.
    public let id: String
    /// The notification's summary (also the page's row label).
    public let title: String
    public let body: String
    public let time: DailyTime
    /// The preference that turns it on.
    public let preference: PreferenceToggle

    public init(id: String, title: String, body: String, time: DailyTime, preference: PreferenceToggle) {
        self.id = id
        self.title = title
        self.body = body
        self.time = time
        self.preference = preference
    }
}
