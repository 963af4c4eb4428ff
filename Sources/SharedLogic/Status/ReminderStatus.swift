/// What the scheduler holds, read once: the scheduler in use, its entries, and whether it can
/// fire anything now. The shell finds these; `ReminderStatus` judges them.
public struct SchedulerFacts: Equatable, Sendable {
    /// The scheduler in use; nil when none can be used.
    public var scheduler: SchedulerKind?
    /// Its entries by reminder id; nil when unknown (none in use, or they could not be read).
    public var entries: [String: InstalledEntry]?
    /// Nothing on this scheduler fires now, and why (its daemon is absent).
    public var schedulerCannotFire: CannotFire?
    /// `scheduler` still holds the entries, but the next apply puts them on this one instead.
    public var movesTo: SchedulerKind?
    /// Reminders whose waiter waits now for a notification service to send today's, with the
    /// moment that wait began, by reminder id.
    public var waiting: [String: Instant]
    /// Why notif cannot write a planned reminder's entry now (its program or a place fails the
    /// trust rule, a path a crontab line cannot hold); nil when it can.
    public var cannotWrite: String?
    /// Reminders whose today's is due and not sent, which a run tried today (it waited and
    /// ended, or failed) and nothing waits to send now: only `notif deliver --catch-up ID`, the
    /// daemon's next try or a login with systemd sends it.
    public var owed: Set<String>

    public init(scheduler: SchedulerKind?, entries: [String: InstalledEntry]?, schedulerCannotFire: CannotFire? = nil,
                movesTo: SchedulerKind? = nil, waiting: [String: Instant] = [:], cannotWrite: String? = nil, owed: Set<String> = []) {
        self.scheduler = scheduler
        self.entries = entries
        self.schedulerCannotFire = schedulerCannotFire
        self.movesTo = movesTo
        self.waiting = waiting
        self.cannotWrite = cannotWrite
        self.owed = owed
    }
}

/// The one status of notif's reminders: what is planned, what is installed, whether they agree,
/// which entries cannot fire and why, and the next reminder or why there is none. Computed once
/// from the settings and the scheduler's facts; `status`, `status --json` and the page only put
/// it into words.
public struct ReminderStatus: Equatable, Sendable {
    public var facts: SchedulerFacts
    /// The scheduler in use could not be read (`facts.entries` is nil).
    public var unreadable: Bool
    /// Planned reminder ids, in table order.
    public var planned: [String]
    /// How the entries differ from the plan (empty: in sync).
    public var outOfSync: [SyncProblem]
    /// Installed entries that are there but will not fire, by reminder id.
    public var cannotFire: [String: CannotFire]
    public var next: NextReminder
    /// A planned reminder whose today's is owed (`SchedulerFacts.owed`): said before `next`.
    public var owed: String?
    /// What `status` and the page say before the next reminder when today's is owed.
    public var owedWords: String? {
        owed.map { "today's is due and not sent, and nothing waits to send it: `notif deliver --catch-up \($0)` sends it now; then " }
    }

    public var scheduler: SchedulerKind? { facts.scheduler }
    public var installed: [String: InstalledEntry]? { facts.entries }

    /// Entries match the plan. With nothing planned and no readable scheduler there is nothing to disagree with.
    public var inSync: Bool { outOfSync.isEmpty && (facts.entries != nil || planned.isEmpty) }

    /// Judges `facts` against the plan of `preferences` (nil: the settings cannot be read, so
    /// nothing is known to be planned and nothing shows).
    /// - Parameter nextFire: each reminder's next firing time (by id), in the zone notif shows.
    /// - Parameter unreadable: the scheduler in use could not be read (`facts.entries` is then nil).
    public static func compute(_ preferences: NotificationPreferences?, facts: SchedulerFacts, unreadable: Bool = false,
                               nextFire: [String: Instant], reminders: [LocalReminder] = LocalReminders.all) -> ReminderStatus {
        var cannot: [String: CannotFire] = [:]
        for (id, entry) in facts.entries ?? [:] {
            // A missing program first: another scheduler would not help that entry.
            if !entry.programRunnable, let program = entry.program {
                cannot[id] = .programMissing(program)
            } else if let line = entry.runByHand {
                cannot[id] = .shellByHand(line)
            } else if let why = facts.schedulerCannotFire {
                cannot[id] = why
            }
        }
        guard let preferences else {
            return ReminderStatus(facts: facts, unreadable: unreadable, planned: [], outOfSync: [], cannotFire: cannot,
                                  next: .none(.settingsUnreadable))
        }
        let plan = reminders.filter { LocalReminders.blockReason(for: $0, in: preferences) == nil }
        let plannedIDs = Set(plan.map(\.id))
        var problems: [SyncProblem] = []
        if let entries = facts.entries {
            for reminder in plan {
                guard let entry = entries[reminder.id] else {
                    problems.append(.notInstalled(reminder.id))
                    continue
                }
                if let to = facts.movesTo, let from = facts.scheduler {
                    problems.append(.elsewhere(reminder.id, on: from, movesTo: to))
                } else if !entry.current {
                    problems.append(entry.enabled ? .differs(reminder.id) : .notEnabled(reminder.id))
                }
            }
            for id in entries.keys.sorted() where !plannedIDs.contains(id) { problems.append(.notPlanned(id)) }
        } else if let kind = facts.scheduler, unreadable {
            problems.append(.unreadable(kind))
        } else if facts.scheduler == nil {
            problems += plan.map { .noScheduler($0.id) }
        }

        let next: NextReminder
        // When each planned entry really shows its reminder, and the wanted time when that differs.
        let firing = plan.compactMap { reminder -> (Instant, String, Instant?)? in
            guard let entry = facts.entries?[reminder.id], cannot[reminder.id] == nil, let wanted = nextFire[reminder.id] else { return nil }
            switch entry.showing {
            case .asWanted: return (wanted, reminder.id, nil)
            case .at(let time): return (time, reminder.id, time == wanted ? nil : wanted)
            case .never: return nil
            }
        }
        // Today's, not yet sent, comes before any entry's next run: it is sent when a service comes.
        if let waiting = plan.first(where: { facts.waiting[$0.id] != nil }) {
            next = .waiting(reminderID: waiting.id, since: facts.waiting[waiting.id]!)
        } else if let soonest = firing.min(by: { $0.0 < $1.0 }) {
            next = .at(soonest.0, reminderID: soonest.1, wanted: soonest.2)
        } else if let first = plan.first {
            if facts.scheduler == nil {
                next = .none(.noScheduler)
            } else if facts.entries == nil {
                next = .none(unreadable ? .unreadable : facts.cannotWrite.map(NoReminderReason.cannotWrite) ?? .notInstalled)
            } else if let why = cannot[first.id] {
                next = .none(.cannotFire(why))
            } else if facts.entries?[first.id]?.showing == .never {
                next = .none(.neverShows)
            } else {
                next = .none(facts.cannotWrite.map(NoReminderReason.cannotWrite) ?? .notInstalled)
            }
        } else if let first = reminders.first, let block = LocalReminders.blockReason(for: first, in: preferences) {
            next = .none(.blocked(block, reminderID: first.id))
        } else {
            next = .none(.nothingDefined)
        }
        return ReminderStatus(facts: facts, unreadable: unreadable, planned: plan.map(\.id), outOfSync: problems, cannotFire: cannot, next: next,
                              owed: plan.first { facts.owed.contains($0.id) && facts.waiting[$0.id] == nil }?.id)
    }
}
