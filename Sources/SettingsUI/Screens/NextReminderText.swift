import SharedLogic

/// The text after `Next reminder:`: the local day and time, or `none — <why>`.
public enum NextReminderText {
    public static func describe(_ preferences: NotificationPreferences, _ status: SchedulerStatus, unicode: Bool = true) -> String {
        let dash = unicode ? "—" : "-"
        var reasons: [String] = []
        var times: [LocalDateTime] = []
        for reminder in LocalReminders.all {
            if let block = LocalReminders.blockReason(for: reminder, in: preferences) {
                reasons.append(text(for: block, reminder: reminder))
            } else if status.scheduler == nil && status.checked {
                reasons.append("no scheduler available")
            } else if let installed = status.installed, !installed.contains(reminder.id) {
                reasons.append("not scheduled yet")
            } else if let time = status.nextFire[reminder.id] {
                times.append(time)
            } else {
                reasons.append(status.checked ? "not scheduled yet" : "checking…")
            }
        }
        if let first = times.min(by: { ($0.date, $0.hour, $0.minute) < ($1.date, $1.hour, $1.minute) }) {
            return first.shortDisplay
        }
        if reasons.first == "checking…" { return unicode ? "checking…" : "checking..." }
        return "none \(dash) " + (reasons.first ?? "nothing planned")
    }

    static func text(for reason: BlockReason, reminder: LocalReminder) -> String {
        switch reason {
        case .accountProject: return "Account project (reminders are a Guest feature)"
        case .masterSwitchOff: return "off (Push Notifications is off)"
        case .preferenceOff: return "off (\(reminder.title) is off)"
        case .permissionDenied: return "blocked: permission is \(NotificationPermission.denied.word) (p changes it)"
        case .permissionNotDetermined: return "permission is \(NotificationPermission.notDetermined.word) (press p)"
        }
    }
}
