/// One reminder notif can schedule on this machine: what it says, when, and which toggle asks for it.
public struct LocalReminder: Hashable, Sendable, Identifiable {
    /// Stable id used in scheduler entries and `notif deliver ID`.
    public let id: String
    /// The notification's summary (also the page's row label).
    public let title: String
    public let body: String
    public let time: DailyTime
    /// Every day, or one day a week, at `time`.
    public let recurrence: Recurrence
    /// The preference that turns it on.
    public let preference: PreferenceToggle

    public init(id: String, title: String, body: String, time: DailyTime, recurrence: Recurrence = .daily,
                preference: PreferenceToggle) {
        self.id = id
        self.title = title
        self.body = body
        self.time = time
        self.recurrence = recurrence
        self.preference = preference
    }

    /// `daily at 09:00`, `every Monday at 10:00`.
    public var schedule: String { "\(recurrence.words) at \(time)" }

    /// `09:00 daily`, `10:00 every Monday`: `status`'s words for the reminder's row.
    public var timeFirst: String { "\(time) \(recurrence.words)" }

    /// `Daily at 09:00`, `Every Monday at 10:00`: the page's detail beside its toggle.
    public var scheduleHeading: String { Wording.capitalizedFirst(schedule) }
}
