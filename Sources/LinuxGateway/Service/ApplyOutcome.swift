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

/// The result of reconciling the scheduler with the saved settings.
public struct ApplyOutcome: Sendable {
    public var preferences: NotificationPreferences
    public var choice: SchedulerChoice
    public var report: ApplyReport
    /// What was removed from other schedulers, so that only the chosen one holds entries.
    public var moves: [SchedulerMove]
    /// A problem with the settings file worth telling (e.g. it was corrupt and moved aside).
    public var notice: String?

    public init(preferences: NotificationPreferences, choice: SchedulerChoice, report: ApplyReport, moves: [SchedulerMove] = [], notice: String?) {
        self.preferences = preferences
        self.choice = choice
        self.report = report
        self.moves = moves
        self.notice = notice
    }

    public var succeeded: Bool { report.succeeded && moves.allSatisfy(\.report.succeeded) }
}
