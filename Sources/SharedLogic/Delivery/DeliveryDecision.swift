/// Whether `notif deliver` shows a reminder now: the saved settings are checked again (a stale
/// scheduler entry delivers nothing) and a reminder shows at most once per local day.
public enum DeliveryDecision: Equatable, Sendable {
    case deliver
    case skip(String)

    /// - Parameters:
    ///   - lastDelivered: the local day this reminder was last delivered, if ever.
    ///   - now/zone: the moment of the attempt; `kind` catch-up only delivers after today's time.
    ///   `kind` test is decided by `decideTest`.
    public static func decide(
        _ reminder: LocalReminder, kind: DeliveryKind, preferences: NotificationPreferences,
        lastDelivered: CivilDate?, now: Instant, zone: ZoneRules
    ) -> DeliveryDecision {
        if let reason = LocalReminders.blockReason(for: reminder, in: preferences) {
            return .skip(reason.message(for: reminder))
        }
        let today = zone.localDateTime(of: now).date
        if lastDelivered == today { return .skip("already delivered today (\(today))") }
        if kind == .catchUp {
            let due = ReminderClock.fireInstant(of: reminder.time, on: today, in: zone)
            if now < due { return .skip("not due yet today (due \(reminder.time))") }
        }
        return .deliver
    }

    /// `notif test` shows a notification whatever the reminder toggles say, once notifications
    /// are allowed: not while the permission is Don't allow or Not decided.
    public static func decideTest(preferences: NotificationPreferences) -> DeliveryDecision {
        switch preferences.permission {
        case .granted: return .deliver
        case .denied: return .skip("permission is Don't allow")
        case .notDetermined: return .skip("permission is Not decided")
        }
    }
}
