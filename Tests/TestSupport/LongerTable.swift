import SharedLogic

/// notif's table with one more toggle and the reminder it turns on, defined here once: a weekly
/// review, Mondays at 10:00, on a `Weekly review` switch placed after Promotions. Tests in each
/// module build the app's logic with it and check it reaches every surface.
public enum LongerTable {
    public static let toggle = PreferenceToggle("weekly-review")

    public static let reminder = LocalReminder(
        id: "weekly-review", title: "Weekly review", body: "What happened this week.",
        time: DailyTime(hour: 10, minute: 0), recurrence: .weekly(.monday), preference: toggle)

    public static let catalog: NotifCatalog = {
        var table = NotifCatalog.standard
        let promotions = table.items.firstIndex { if case .toggle(let spec) = $0 { return spec.toggle == .promotions } else { return false } }!
        table.items.insert(.toggle(ToggleSpec(toggle, jsonKey: "weeklyReview", label: "Weekly review", detail: "", defaultValue: false)),
                           at: promotions + 1)
        table.reminders.append(reminder)
        return table
    }()
}
