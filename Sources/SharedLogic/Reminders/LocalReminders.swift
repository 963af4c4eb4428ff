/// The shared logic: which reminders exist, which the saved settings ask for, and reconciling a
/// scheduler with that plan. The reminders themselves are entries in `NotifCatalog`.
public enum LocalReminders {
    public static let tipsAndUpdates = NotifCatalog.standard.reminders.first { $0.id == "tips-and-updates" }!

    /// What `notif test` shows: not a scheduled reminder, never counted as a day's delivery.
    public static let testNotification = LocalReminder(
        id: "test",
        title: "notif test notification",
        body: "If you can read this, notif can show your reminders.",
        time: tipsAndUpdates.time,
        preference: .pushNotifications
    )

    /// Every reminder notif defines.
    public static let all: [LocalReminder] = NotifCatalog.standard.reminders

    public static func reminder(id: String) -> LocalReminder? { all.first { $0.id == id } }

    /// Why `reminder` is not planned under `preferences`, or nil when it is.
    public static func blockReason(for reminder: LocalReminder, in preferences: NotificationPreferences) -> BlockReason? {
        if preferences.mode == .account { return .accountProject }
        if !preferences[.pushNotifications] { return .masterSwitchOff }
        if !preferences[reminder.preference] { return .preferenceOff }
        switch preferences.permission {
        case .granted: return nil
        case .denied: return .permissionDenied
        case .notDetermined: return .permissionNotDetermined
        }
    }

    /// The reminders the saved settings ask for.
    public static func plan(_ preferences: NotificationPreferences, reminders: [LocalReminder] = all) -> [LocalReminder] {
        reminders.filter { blockReason(for: $0, in: preferences) == nil }
    }

    /// Whether turning `toggle` on (or the master switch on) would plan a reminder but for a
    /// permission nobody has decided yet: the moment to ask.
    public static func wouldAskPermission(_ preferences: NotificationPreferences) -> Bool {
        all.contains { blockReason(for: $0, in: preferences) == .permissionNotDetermined }
    }

    /// Reconciles `gateway` with the plan: installs what is planned and missing or stale, cancels
    /// every installed entry that is not planned (orphans included), and touches nothing else.
    /// A no-op apply calls only `installed()` and `render`.
    public static func apply(
        _ preferences: NotificationPreferences,
        gateway: some LocalNotificationGateway,
        reminders all: [LocalReminder] = all,
        entry: (LocalReminder) throws(GatewayError) -> ScheduledEntry
    ) -> ApplyReport {
        let installed: [String: String]
        do {
            installed = try gateway.installed()
        } catch {
            // A scheduler that is not there holds nothing: what is off is fine. One that cannot be
            // read may still hold an entry that should go, so nothing is reported as done.
            let outcomes = all.map { reminder in
                ReminderOutcome(id: reminder.id, result: error.schedulerMissing ? blockReason(for: reminder, in: preferences).map {
                    $0 == .preferenceOff ? .unchanged : .blocked($0)
                } ?? .failed(error.message) : .failed(error.message))
            }
            return ApplyReport(outcomes: outcomes)
        }
        var outcomes: [ReminderOutcome] = []
        for reminder in all {
            var outcome = ReminderOutcome(id: reminder.id, result: reconcile(
                reminder, preferences: preferences, current: installed[reminder.id], gateway: gateway, entry: entry))
            outcome.newEntry = outcome.result == .installed && installed[reminder.id] == nil
            outcomes.append(outcome)
        }
        let known = Set(all.map(\.id))
        for orphan in installed.keys.sorted() where !known.contains(orphan) {
            outcomes.append(ReminderOutcome(id: orphan, result: cancel(orphan, on: gateway)))
        }
        return ApplyReport(outcomes: outcomes)
    }

    private static func reconcile(
        _ reminder: LocalReminder, preferences: NotificationPreferences, current: String?,
        gateway: some LocalNotificationGateway, entry makeEntry: (LocalReminder) throws(GatewayError) -> ScheduledEntry
    ) -> ReminderResult {
        if let reason = blockReason(for: reminder, in: preferences) {
            if current != nil { return cancel(reminder.id, on: gateway) }
            return reason == .preferenceOff ? .unchanged : .blocked(reason)
        }
        do {
            // An entry that cannot be made (notif's own program is gone, say) installs nothing.
            let entry = try makeEntry(reminder)
            if try gateway.render(entry) == current { return .unchanged }
            try gateway.install(entry)
            return .installed
        } catch {
            return .failed(error.message)
        }
    }

    private static func cancel(_ id: String, on gateway: some LocalNotificationGateway) -> ReminderResult {
        do {
            try gateway.cancel(id)
            return .cancelled
        } catch {
            return .failed(error.message)
        }
    }
}
