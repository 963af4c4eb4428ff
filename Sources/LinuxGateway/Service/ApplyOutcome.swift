import SharedLogic

/// Entries removed from a scheduler that is not the chosen one (the one used before, or one
/// still holding leftovers).
public struct SchedulerMove: Sendable {
    public var scheduler: SchedulerKind
    public var report: ApplyReport
    /// Said when the old scheduler is gone, so nothing of notif's can fire there any more.
    public var note: String?

    public init(scheduler: SchedulerKind, report: ApplyReport, note: String? = nil) {
        self.scheduler = scheduler
        self.report = report
        self.note = note
    }
}

/// The entries went to another scheduler than the one that held them, and why.
public struct SchedulerChange: Equatable, Sendable {
    public var from: SchedulerKind
    public var to: SchedulerKind
    public var why: String

    public init(from: SchedulerKind, to: SchedulerKind, why: String) {
        self.from = from
        self.to = to
        self.why = why
    }
}

/// The result of reconciling the scheduler with the saved settings.
public struct ApplyOutcome: Sendable {
    public var preferences: NotificationPreferences
    public var choice: SchedulerChoice
    public var report: ApplyReport
    /// What was removed from other schedulers, so that only the chosen one holds entries.
    public var moves: [SchedulerMove]
    /// Set when this apply moved notif's entries to another scheduler (all of them: the old one
    /// holds none any more).
    public var change: SchedulerChange?
    /// A problem with the settings file worth telling (e.g. it was corrupt and moved aside).
    public var notice: String?

    public init(preferences: NotificationPreferences, choice: SchedulerChoice, report: ApplyReport, moves: [SchedulerMove] = [],
                change: SchedulerChange? = nil, notice: String?) {
        self.preferences = preferences
        self.choice = choice
        self.report = report
        self.moves = moves
        self.change = change
        self.notice = notice
    }

    public var succeeded: Bool { report.succeeded && moves.allSatisfy(\.report.succeeded) }

    /// An entry that should be gone may still be there: removing it failed (or its scheduler
    /// could not even be read), here or on the scheduler the entries were moving off.
    public var mayStillFire: Bool {
        let planned = Set(LocalReminders.plan(preferences).map(\.id))
        return report.failures.contains { !planned.contains($0.id) } || moves.contains { !$0.report.succeeded }
    }
}
