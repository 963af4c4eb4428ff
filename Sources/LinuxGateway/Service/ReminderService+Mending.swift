import SharedLogic

/// Entries that drifted out of sync mend themselves: a run of `notif deliver` (a scheduled one,
/// cron's `@reboot` line, a timer's) first looks whether the scheduler holding the entries still
/// holds what `apply` would write now, and when it does not (the system zone changed, so cron's
/// or systemd's times in it are wrong; tzdata moved a switch; another notif wrote them; an earlier
/// notif's block lacks its SHELL and PATH lines), it rewrites them from the saved settings with
/// the locked reconcile `apply` uses, on that scheduler only. When nothing is wrong the look costs
/// what `status` pays to read the entries: one `crontab -l` for cron, files for the others.
extension ReminderService {
    /// Rewrites the recorded scheduler's entries when they differ from what `apply` would write;
    /// nil when they do not (or nothing is recorded, or they or the settings cannot be read:
    /// then there is nothing a rewrite could be sure of).
    @discardableResult
    public func mendEntries() -> ApplyReport? {
        guard let holder = recordedScheduler(), let gateway = gateway(for: holder),
              let installed = try? gateway.installed(), let loaded = try? context.store.load(),
              // No settings file (an editor may be saving it by renaming), or one that does not
              // parse: nothing to mend from, the entries stay as they are.
              loaded.fileExisted, !inSync(installed, preferences: loaded.preferences, gateway: gateway) else { return nil }
        return try? reconcile(on: holder, mending: true)
    }

    /// Whether `installed` is exactly what a reconcile with `preferences` would leave: each planned
    /// reminder's entry as `render` writes it, nothing else. A planned entry notif cannot make
    /// (its own program is gone) is left to `apply`, which says why.
    func inSync(_ installed: [String: String], preferences: NotificationPreferences, gateway: some LocalNotificationGateway) -> Bool {
        let known = Set(reminders.map(\.id))
        if installed.keys.contains(where: { !known.contains($0) }) { return false }
        for reminder in reminders {
            guard LocalReminders.blockReason(for: reminder, in: preferences) == nil else {
                if installed[reminder.id] != nil { return false }
                continue
            }
            guard let wanted = try? gateway.render(entry(for: reminder)) else { continue }
            if installed[reminder.id] != wanted { return false }
        }
        return true
    }
}
