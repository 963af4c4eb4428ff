/// What `LocalReminders.apply` did for one reminder.
public enum ReminderResult: Equatable, Sendable {
    /// Planned and now scheduled (it was missing or stale).
    case installed
    /// Not planned and removed from the scheduler.
    case cancelled
    /// Nothing to do: planned and already scheduled, or off and not scheduled.
    case unchanged
    /// Its toggle is on, but something else keeps it unscheduled.
    case blocked(BlockReason)
    case failed(String)
}

/// The outcome of one reminder in an apply (orphans, ids notif no longer defines, appear too).
public struct ReminderOutcome: Equatable, Sendable {
    public let id: String
    public let result: ReminderResult
    /// Installed where the scheduler had no entry for it before (turned on, or moved here): its
    /// entry begins now.
    public var newEntry = false
    public init(id: String, result: ReminderResult) {
        self.id = id
        self.result = result
    }

    /// The same reminder and result (`newEntry` is a note on it).
    public static func == (a: ReminderOutcome, b: ReminderOutcome) -> Bool { a.id == b.id && a.result == b.result }
}

/// Everything one apply did.
public struct ApplyReport: Equatable, Sendable {
    public let outcomes: [ReminderOutcome]
    public init(outcomes: [ReminderOutcome]) { self.outcomes = outcomes }

    public var failures: [ReminderOutcome] {
        outcomes.filter { if case .failed = $0.result { return true } else { return false } }
    }
    public var succeeded: Bool { failures.isEmpty }
    public func result(for id: String) -> ReminderResult? { outcomes.first { $0.id == id }?.result }
}

extension ReminderResult {
    /// A few words for logs (`scheduled`, `not scheduled: Push Notifications is off`).
    public func summary(for id: String) -> String {
        switch self {
        case .installed: return "scheduled"
        case .cancelled: return "cancelled"
        case .unchanged: return "unchanged"
        case .blocked(let reason):
            return "not scheduled: " + (LocalReminders.all.first { $0.id == id }.map(reason.message(for:)) ?? "blocked")
        case .failed(let why): return "failed: " + why
        }
    }
}
