import SharedLogic
import Storage

extension ReminderService {
    /// Cancels notif's entries on every scheduler but `kept`: the one recorded as used before,
    /// and the file-based ones (systemd, embedded) whenever they hold leftovers, which costs no
    /// process. A scheduler whose program is gone holds nothing that can fire: it is skipped
    /// with a note. A failure is reported and the recorded scheduler kept, so the next apply retries.
    func moveOff(except kept: SchedulerKind, recorded: SchedulerKind?, preferences: NotificationPreferences) -> [SchedulerMove] {
        var nothing = preferences
        nothing[.pushNotifications] = false
        var moves: [SchedulerMove] = []
        for kind in SchedulerKind.allCases where kind != kept {
            guard let old = gateway(for: kind), kind == recorded || kind != .cron else { continue }
            do {
                if try old.installed().isEmpty { continue }
            } catch where error.schedulerMissing {
                moves.append(SchedulerMove(scheduler: kind, report: ApplyReport(outcomes: []),
                                           note: "\(error.message): nothing of notif's can run there any more"))
                continue
            } catch {
                moves.append(SchedulerMove(scheduler: kind, report: ApplyReport(outcomes: [ReminderOutcome(id: "(\(kind.rawValue) entries)", result: .failed(error.message))])))
                continue
            }
            moves.append(SchedulerMove(scheduler: kind, report: LocalReminders.apply(nothing, gateway: old, reminders: reminders, entry: entry(for:))))
        }
        return moves
    }

    /// Reconciles one scheduler with the saved settings, leaving the others and the recorded
    /// choice alone (`notif daemon` uses it when the settings change under it). `mending`: the
    /// entries are rewritten, not begun (an earlier notif's, or ones a zone change put out of
    /// sync), so when they began stays as it was.
    public func reconcile(on kind: SchedulerKind, mending: Bool = false) throws(PreferencesError) -> ApplyReport {
        try underApplyLock { loaded in
            guard let gateway = gateway(for: kind) else { return ApplyReport(outcomes: []) }
            let report = LocalReminders.apply(loaded.preferences, gateway: gateway, reminders: reminders, entry: entry(for:))
            if !mending { recordNewEntries(report) }
            return report
        }
    }
}

extension SchedulerChange {
    /// What an apply onto `kind` really did, from its own results: `moved` when an entry was
    /// removed from another scheduler (`moves`) and the same reminder written on `kind`
    /// (`.installed` in `report`); `moved: false` when nothing is planned and an entry was
    /// removed from another scheduler; nil otherwise, e.g. when the recorded holder changed but
    /// held nothing, or `kind` already held the reminder. Of several schedulers that gave up
    /// entries, the recorded holder is named.
    public static func made(onto kind: SchedulerKind, report: ApplyReport, moves: [SchedulerMove], planned: Set<String>,
                            recorded: SchedulerKind?, why: String) -> SchedulerChange? {
        let written = Set(report.outcomes.filter { $0.result == .installed }.map(\.id))
        let gaveUp = moves.filter { $0.scheduler != kind }.map { move in
            (scheduler: move.scheduler, ids: Set(move.report.outcomes.filter { $0.result == .cancelled }.map(\.id)))
        }.filter { !$0.ids.isEmpty }
        let removals = gaveUp.filter { $0.scheduler == recorded } + gaveUp.filter { $0.scheduler != recorded }
        if let from = removals.first(where: { !$0.ids.isDisjoint(with: written) }) {
            return SchedulerChange(from: from.scheduler, to: kind, why: why)
        }
        if planned.isEmpty, let from = removals.first {
            return SchedulerChange(from: from.scheduler, to: kind, why: why, moved: false)
        }
        return nil
    }
}
