import SharedLogic

/// What the shell knows about the scheduler, for the page's status area: the facts it read
/// (typed), from which the page computes the one `ReminderStatus` for the settings it shows.
public struct SchedulerStatus: Equatable, Sendable {
    /// The scheduler in use, its entries, and whether it fires now.
    public var facts: SchedulerFacts
    /// The scheduler's entries could not be read.
    public var unreadable: Bool
    /// Things the person should know (daemon not running, no scheduler...).
    public var warnings: [String]
    /// The next firing of each reminder, whatever the settings.
    public var nextFire: [String: Instant]
    /// The zone notif shows, for `nextFire` in words.
    public var zone: ZoneRules
    /// False until the scheduler has been looked at (the first frame comes before that).
    public var checked: Bool
    /// What each choice in the chooser means on this machine, in `SchedulerPreference` order.
    public var options: [SchedulerUsability]
    /// How an override picked the scheduler for this run, as it was given (`--scheduler` or
    /// `NOTIF_SCHEDULER`); nil when nothing overrides the saved choice.
    public var overriddenBy: String?
    /// An override picked the scheduler for this run.
    public var overridden: Bool { overriddenBy != nil }
    /// Said once when the entries just moved to another scheduler (`Moved the reminder from …`).
    public var moved: String?

    public init(facts: SchedulerFacts, unreadable: Bool = false, warnings: [String] = [], nextFire: [String: Instant] = [:],
                zone: ZoneRules = .utc, checked: Bool = true, options: [SchedulerUsability] = [], overriddenBy: String? = nil,
                moved: String? = nil) {
        self.facts = facts
        self.unreadable = unreadable
        self.warnings = warnings
        self.nextFire = nextFire
        self.zone = zone
        self.checked = checked
        self.options = options
        self.overriddenBy = overriddenBy
        self.moved = moved
    }

    /// A status from plain ids (tests, first frames): each id in `installed` is a current entry
    /// that can fire; `nextFire` times are wall-clock times in UTC.
    public init(scheduler: SchedulerKind? = nil, installed: Set<String>? = nil, warnings: [String] = [],
                nextFire: [String: LocalDateTime] = [:], checked: Bool = true, options: [SchedulerUsability] = [],
                overriddenBy: String? = nil, moved: String? = nil) {
        let entries = installed.map { ids in
            Dictionary(uniqueKeysWithValues: ids.map { ($0, InstalledEntry(id: $0, current: true)) })
        }
        self.init(facts: SchedulerFacts(scheduler: scheduler, entries: entries), warnings: warnings,
                  nextFire: nextFire.mapValues { ZoneRules.utc.resolve($0) }, zone: .utc, checked: checked, options: options,
                  overriddenBy: overriddenBy, moved: moved)
    }

    /// The scheduler in use; nil when none can be used (or not looked at yet).
    public var scheduler: SchedulerKind? { facts.scheduler }

    /// The reminders' status under `preferences` (the page's settings, which may be newer than the facts).
    public func reminders(for preferences: NotificationPreferences, catalog: NotifCatalog = .standard) -> ReminderStatus {
        ReminderStatus.compute(preferences, facts: facts, unreadable: unreadable, nextFire: nextFire, reminders: catalog.reminders)
    }
}

/// The History screen's content.
public enum HistoryContent: Equatable, Sendable {
    case loading
    /// Guest: this machine's delivery log, newest first.
    case records([DeliveryRecord])
    /// Account: the server's history; `note` says when it is a cached copy and why.
    case server([ServerNotification], note: String?)
    case failed(String)
}
