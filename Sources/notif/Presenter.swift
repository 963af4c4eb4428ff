import LinuxGateway
import SharedLogic

/// Turns apply, delivery and status results into the lines people read.
struct Presenter {
    let zone: ZoneRules
    let clock: any Clock

    /// One line per reminder (and per entry removed from a previous scheduler).
    func applyLines(_ outcome: ApplyOutcome) -> [String] {
        var lines: [String] = []
        let scheduler = outcome.choice.kind?.rawValue ?? "no scheduler"
        for move in outcome.moves {
            let old = move.scheduler.rawValue
            if let note = move.note { lines.append("\(old): \(note)") }
            for item in move.report.outcomes where item.result != .unchanged {
                lines.append("\(item.id): \(describe(item.result, reminder: nil, scheduler: old, preferences: outcome.preferences)) (moving off \(old))")
            }
        }
        for item in outcome.report.outcomes {
            let reminder = LocalReminders.reminder(id: item.id)
            lines.append("\(reminder?.title ?? item.id): \(describe(item.result, reminder: reminder, scheduler: scheduler, preferences: outcome.preferences))")
        }
        return lines
    }

    func describe(_ result: ReminderResult, reminder: LocalReminder?, scheduler: String, preferences: NotificationPreferences) -> String {
        let when = reminder.map { "daily at \($0.time)" } ?? "its entry"
        var next: String {
            reminder.map { "; next " + ReminderClock.nextFire(of: $0.time, after: clock.now(), in: zone).shortDisplay(in: zone) } ?? ""
        }
        switch result {
        case .installed: return "scheduled \(when) with \(scheduler)\(next)"
        case .unchanged:
            if let reminder, LocalReminders.blockReason(for: reminder, in: preferences) == nil {
                return "scheduled \(when) with \(scheduler) (unchanged)\(next)"
            }
            return "off, nothing scheduled"
        case .cancelled:
            let why = reminder.flatMap { LocalReminders.blockReason(for: $0, in: preferences)?.message(for: $0) }
            return "cancelled" + (why.map { " (\($0))" } ?? "")
        case .blocked(let reason):
            return "not scheduled: " + (reminder.map { reason.message(for: $0) } ?? "blocked") + hint(reason)
        case .failed(let error):
            return "NOT scheduled: \(error)"
        }
    }

    func hint(_ reason: BlockReason) -> String {
        switch reason {
        case .permissionNotDetermined: return "; run `notif permission grant` to allow notifications"
        case .permissionDenied: return "; `notif permission grant` allows them again"
        case .masterSwitchOff: return "; `notif set push-notifications on` turns it back on"
        case .accountProject, .preferenceOff: return ""
        }
    }

    /// One line per record: what the log holds is shown with any control character (a line
    /// break included) as an escape, so a record can never pass for two.
    func recordLine(_ record: DeliveryRecord) -> String {
        let detail = TerminalText.safe(record.detail, limit: .max)
        return "\(TerminalText.safe(record.time, limit: .max))  \(TerminalText.safe(record.reminder, limit: .max))  \(record.outcome.rawValue)"
            + (record.kind == .scheduled ? "" : " (\(record.kind.rawValue))") + (detail.isEmpty ? "" : ": \(detail)")
    }
}

extension Instant {
    /// `Mon 30 Nov 09:00` in `zone`.
    func shortDisplay(in zone: ZoneRules) -> String { zone.localDateTime(of: self).shortDisplay }
}
