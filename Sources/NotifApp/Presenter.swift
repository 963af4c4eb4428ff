import LinuxGateway
import SharedLogic

/// Turns apply, delivery and status results into the lines people read.
struct Presenter {
    let zone: ZoneRules
    /// How to stop an entry notif could not remove from a scheduler (`ReminderService.removalHint`).
    var removalHint: (SchedulerKind, String?) -> String = { _, _ in "fix that and run `notif apply`" }
    /// The one status, read after the change (`ReminderService.status`): what comes next, as
    /// `notif status` and the page say it. nil: nothing is said of the next one.
    var status: () -> StatusReport? = { nil }

    init(zone: ZoneRules) {
        self.zone = zone
    }

    /// The words of `service`'s run: its zone, and its status.
    init(service: ReminderService) {
        self.init(zone: service.context.zone)
        removalHint = service.removalHint
        status = { service.status() }
    }

    /// What comes next in `report`, in words: its time (with the wanted one when the entries
    /// fire at another, and what the scheduler waits for), or today's wait; nil when none comes.
    static func next(_ report: StatusReport, zone: ZoneRules, when: (Instant) -> String) -> String? {
        if let next = report.nextReminder {
            return when(next) + (report.wantedReminder.map { ", not the wanted \(when($0))" } ?? "")
                + (report.schedulers.first { $0.choice.rawValue == report.reminders.scheduler?.rawValue }?.once.map { ", " + $0 } ?? "")
        }
        return report.waitingSince.map { DeliveryLateness.waitingNext(since: $0, zone: zone) }
    }

    /// A line when the entries changed scheduler, then one per reminder (and per entry removed
    /// from the scheduler that held them before).
    /// - Parameter onlyFailures: just the lines about what failed (for commands that say the rest their own way).
    func applyLines(_ outcome: ApplyOutcome, onlyFailures: Bool = false) -> [String] {
        var lines: [String] = []
        let scheduler = outcome.choice.kind?.rawValue ?? "no scheduler"
        if let change = Self.changeLine(outcome), !onlyFailures { lines.append(change) }
        for move in outcome.moves where !onlyFailures {
            let old = move.scheduler.rawValue
            if let note = move.note { lines.append("\(old): \(note)") }
            for item in move.report.outcomes where item.result != .unchanged && !item.isFailure {
                lines.append("\(item.id): \(describe(item.result, reminder: nil, scheduler: old, preferences: outcome.preferences)) (moving off \(old))")
            }
        }
        lines += stillFiring(outcome).map { "\($0.title): may still fire: \($0.detail)" }
        let planned = Set(LocalReminders.plan(outcome.preferences).map(\.id))
        // Read once, after the change, and only when a line says what comes next.
        let report = !onlyFailures && outcome.report.outcomes.contains { [.installed, .unchanged].contains($0.result) } ? status() : nil
        for item in outcome.report.outcomes where !(item.isFailure && !planned.contains(item.id) && outcome.choice.kind != nil) {
            if onlyFailures && !item.isFailure { continue }
            let reminder = LocalReminders.reminder(id: item.id)
            lines.append("\(reminder?.title ?? item.id): \(describe(item.result, reminder: reminder, scheduler: scheduler, preferences: outcome.preferences, report: report))")
        }
        return lines
    }

    /// `Moved the reminder from cron to systemd: you chose systemd.` when this apply removed an
    /// entry from one scheduler and wrote it on another; `Removed the reminder from cron …` when
    /// nothing is planned and it only removed one; nothing otherwise.
    static func changeLine(_ outcome: ApplyOutcome) -> String? {
        guard let change = outcome.change else { return nil }
        return change.moved
            ? "Moved the reminder from \(change.from.rawValue) to \(change.to.rawValue): \(change.why)."
            : "Removed the reminder from \(change.from.rawValue) (it goes to \(change.to.rawValue) once scheduled again): \(change.why)."
    }

    /// Entries that should be gone but could not be removed (or even read), each with what went
    /// wrong and how to stop it: a reminder that is not planned, and entries left on the
    /// scheduler the reminder was moving off.
    func stillFiring(_ outcome: ApplyOutcome) -> [(title: String, detail: String)] {
        var result: [(title: String, detail: String)] = []
        for move in outcome.moves {
            for item in move.report.outcomes {
                guard case .failed(let error) = item.result else { continue }
                let reminder = LocalReminders.reminder(id: item.id)
                result.append((reminder?.title ?? item.id, "notif could not remove its old \(move.scheduler.rawValue) entry: \(error); "
                    + removalHint(move.scheduler, reminder?.id)))
            }
        }
        let planned = Set(LocalReminders.plan(outcome.preferences).map(\.id))
        if let kind = outcome.choice.kind {
            for item in outcome.report.outcomes where !planned.contains(item.id) {
                guard case .failed(let error) = item.result else { continue }
                let reminder = LocalReminders.reminder(id: item.id)
                result.append((reminder?.title ?? item.id, "notif could not check or remove its \(kind.rawValue) entry: \(error); "
                    + removalHint(kind, reminder?.id)))
            }
        }
        return result
    }

    /// - Parameter report: the status after the change: what comes next (or why the entries
    ///   cannot fire), said after a scheduled reminder.
    func describe(_ result: ReminderResult, reminder: LocalReminder?, scheduler: String, preferences: NotificationPreferences,
                  report: StatusReport? = nil) -> String {
        let when = reminder.map(\.schedule) ?? "its entry"
        var next: String {
            guard reminder != nil, let report else { return "" }
            if case .none(.cannotFire(let why)) = report.reminders.next { return "; it cannot fire yet: " + StatusWords.cannotFire(why) }
            return Self.next(report, zone: zone) { $0.shortDisplay(in: zone) }.map { "; next " + $0 } ?? ""
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
        case .permissionNotDetermined: return "; `notif permission allow` allows notifications"
        case .permissionDenied: return "; `notif permission allow` allows them again"
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

extension ReminderOutcome {
    var isFailure: Bool {
        if case .failed = result { return true }
        return false
    }
}
