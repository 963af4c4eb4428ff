/// One on/off setting, as every surface names it: the command line (`PreferenceToggle`'s raw
/// value), settings.json, the page's row and detail, and whether the master switch pauses it.
public struct ToggleSpec: Hashable, Sendable {
    public let toggle: PreferenceToggle
    /// The key in settings.json and in `status --json`'s `preferences`.
    public let jsonKey: String
    /// The page's row label, also `status`'s row.
    public let label: String
    /// The page's text beside the switch, for a toggle no reminder follows.
    public let detail: String
    /// The master switch (Push Notifications) pauses it while off.
    public let pausedByMaster: Bool
    /// Its value in a new settings file.
    public let defaultValue: Bool

    public init(_ toggle: PreferenceToggle, jsonKey: String, label: String, detail: String, pausedByMaster: Bool = true,
                defaultValue: Bool) {
        self.toggle = toggle
        self.jsonKey = jsonKey
        self.label = label
        self.detail = detail
        self.pausedByMaster = pausedByMaster
        self.defaultValue = defaultValue
    }

    /// The command-line name (`tips-and-updates`).
    public var cliName: String { toggle.rawValue }
}

/// One place in the page's order (also `set`'s, settings.json's and `status`'s): a toggle or the sound choice.
public enum CatalogItem: Hashable, Sendable {
    case toggle(ToggleSpec)
    case sound
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
            .toggle(ToggleSpec(.pushNotifications, jsonKey: "pushNotifications", label: "Push Notifications", detail: "Master switch",
                               pausedByMaster: false, defaultValue: true)),
            .toggle(ToggleSpec(.tipsAndUpdates, jsonKey: "tipsAndUpdates", label: "Tips & Updates", detail: "", defaultValue: false)),
            .toggle(ToggleSpec(.queueAlerts, jsonKey: "queueAlerts", label: "Queue alerts", detail: "When your turn comes up", defaultValue: true)),
            .toggle(ToggleSpec(.promotions, jsonKey: "promotions", label: "Promotions", detail: "Offers and news", defaultValue: false)),
            .sound,
            .toggle(ToggleSpec(.vibration, jsonKey: "vibration", label: "Vibration", detail: "Where the device supports it", defaultValue: true)),
        ],
        reminders: [
            LocalReminder(id: "tips-and-updates", title: "Tips & Updates",
                          body: "Your daily tip: see what is new and get more out of the app.",
                          time: DailyTime(hour: 9, minute: 0), recurrence: .daily, preference: .tipsAndUpdates),
        ])

    /// The toggles, in page order.
    public var toggles: [ToggleSpec] {
        items.compactMap { if case .toggle(let spec) = $0 { return spec } else { return nil } }
    }

    /// The entry for `toggle`.
    public func spec(_ toggle: PreferenceToggle) -> ToggleSpec {
        toggles.first { $0.toggle == toggle }!
    }

    /// The reminder that follows `toggle`, if any.
    public func reminder(following toggle: PreferenceToggle) -> LocalReminder? {
        reminders.first { $0.preference == toggle }
    }

    /// The page's text beside `toggle`: the schedule of the reminder it turns on (`Daily at 09:00`), else its detail.
    public func detail(_ toggle: PreferenceToggle) -> String {
        reminder(following: toggle)?.scheduleHeading ?? spec(toggle).detail
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
