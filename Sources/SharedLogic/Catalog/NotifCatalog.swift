/// One place in the page's order (also `set`'s, settings.json's and `status`'s): a toggle or the sound choice.
public enum CatalogItem: Hashable, Sendable {
    case toggle(PreferenceToggle)
    case sound

    /// The page's row label, also `set`'s and `status`'s.
    public var label: String {
        switch self {
        case .toggle(let toggle): return toggle.label
        case .sound: return "Sound"
        }
    }

    /// The toggle it is, if it is one.
    public var toggle: PreferenceToggle? {
        if case .toggle(let toggle) = self { return toggle }
        return nil
    }

    /// Whether the master switch pauses it while off (the sound choice too).
    public var dependsOnMaster: Bool { toggle?.dependsOnMaster ?? true }
}

/// The table every surface reads: each toggle and each reminder, in order. The page's rows,
/// `Setting`'s names, the JSON key order, `status` lines, the prompt's and onboarding's texts,
/// the scheduler entries and the help come from here.
public struct NotifCatalog: Equatable, Sendable {
    /// Page order: toggles and the sound choice.
    public var items: [CatalogItem]
    /// Every reminder, each following one toggle.
    public var reminders: [LocalReminder]

    public init(items: [CatalogItem], reminders: [LocalReminder]) {
        self.items = items
        self.reminders = reminders
    }

    /// notif's own table.
    public static let standard = NotifCatalog(
        items: [
            .toggle(.pushNotifications), .toggle(.tipsAndUpdates), .toggle(.queueAlerts), .toggle(.promotions), .sound, .toggle(.vibration),
        ],
        reminders: [
            LocalReminder(id: "tips-and-updates", title: "Tips & Updates",
                          body: "Your daily tip: see what is new and get more out of the app.",
                          time: DailyTime(hour: 9, minute: 0), recurrence: .daily, preference: .tipsAndUpdates),
        ])

    /// The toggles, in page order.
    public var toggles: [PreferenceToggle] { items.compactMap(\.toggle) }

    /// The reminder that follows `toggle`, if any.
    public func reminder(following toggle: PreferenceToggle) -> LocalReminder? {
        reminders.first { $0.preference == toggle }
    }

    /// The page's text beside `toggle`: the schedule of the reminder it turns on (`Daily at 09:00`), else its detail.
    public func detail(_ toggle: PreferenceToggle) -> String {
        reminder(following: toggle)?.scheduleHeading ?? toggle.detail
    }

    /// `Tips & Updates schedules a daily reminder at 09:00 local time`, `Weekly review schedules a
    /// weekly reminder on Mondays at 10:00 local time`: one sentence part per reminder, for the help.
    public var remindersScheduled: String {
        reminders.map { reminder in
            let day = if case .weekly(let day) = reminder.recurrence { "on \(day.name)s " } else { "" }
            return "\(reminder.title) schedules a \(reminder.recurrence.adjective) reminder \(day)at \(reminder.time) local time"
        }.joined(separator: "; ")
    }

    /// `a Tips & Updates reminder daily at 09:00`, `… and a Weekly review reminder every Monday at 10:00`.
    public var remindersInWords: String {
        let each = reminders.map { "a \($0.title) reminder \($0.schedule)" }
        guard let last = each.last else { return "reminders" }
        return each.count == 1 ? last : each.dropLast().joined(separator: ", ") + " and " + last
    }
}
