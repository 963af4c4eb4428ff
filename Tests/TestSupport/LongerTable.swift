import SharedLogic

/// notif's table with one more toggle and the reminder it turns on, defined here once: a weekly
/// review, Mondays at 10:00, on a `Weekly review` switch placed after Promotions. Tests in each
/// module build the app's logic with it and check it reaches every surface.
public enum LongerTable {
    public static let toggle = PreferenceToggle("weekly-review", jsonKey: "weeklyReview", label: "Weekly review", defaultValue: false)

    public static let reminder = LocalReminder(
        id: "weekly-review", title: "Weekly review", body: "What happened this week.",
        time: DailyTime(hour: 10, minute: 0), recurrence: .weekly(.monday), preference: toggle)

    public static let catalog: NotifCatalog = {
        var table = NotifCatalog.standard
        table.items.insert(.toggle(toggle), at: table.items.firstIndex(of: .toggle(.promotions))! + 1)
        table.reminders.append(reminder)
        return table
    }()
}
