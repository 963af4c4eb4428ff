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

/// What one apply really did across schedulers, and why: an entry removed from `from` and
/// written on `to` (moved), or, with nothing planned, only removed from `from`.
public struct SchedulerChange: Equatable, Sendable {
    public var from: SchedulerKind
    public var to: SchedulerKind
    public var why: String
    /// True: the reminder's entry was removed from `from` and written on `to` in this apply.
    /// False: nothing is planned, and the entry was only removed from `from` (`to` holds the
    /// reminder once it is scheduled again).
    public var moved: Bool

    public init(from: SchedulerKind, to: SchedulerKind, why: String, moved: Bool = true) {
        self.from = from
        self.to = to
        self.why = why
        self.moved = moved
    }
}

/// The result of reconciling the scheduler with the saved settings.
public struct ApplyOutcome: Sendable {
    public var preferences: NotificationPreferences
    public var choice: SchedulerChoice
    public var report: ApplyReport
    /// What was removed from other schedulers, so that only the chosen one holds entries.
    public var moves: [SchedulerMove]
    /// Set when this apply removed an entry from another scheduler and wrote it on the chosen
    /// one, or (nothing planned) only removed it (`SchedulerChange.made`).
    public var change: SchedulerChange?
    /// A problem worth telling that is not the scheduler's (the configuration list could not be written).
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
