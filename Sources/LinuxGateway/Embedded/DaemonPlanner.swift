import SharedLogic

/// The built-in scheduler's rules, without I/O: on each wake, given the time, the zone and the
/// entries, which deliveries to attempt; then when to wake next.
///
/// - At start, after a clock jump (forward or back, beyond `jumpTolerance`, e.g. a resume from
///   suspend) and after a zone change, every entry gets a catch-up attempt (shown only if today's
///   time has passed, the entry existed then, and today's was not shown) and is re-armed for its
///   next time.
/// - Otherwise an entry whose armed time has come is delivered as scheduled and re-armed. (A
///   wake much later than planned is a jump, handled above.)
/// - A new entry, or one whose time changed, is armed for its next time without a catch-up, like
///   a new cron line; one whose zone changed (written again with another `TZ`) is caught up and
///   armed in its new zone, as at a zone change.
/// - The next wake is the earliest armed time and nothing else: the daemon's sleeper ends a nap
///   early when the clock is set, the machine resumes, or the zone, settings or entries change.
public struct DaemonPlanner: Sendable {
    public static let jumpTolerance: Int64 = 90

    /// Why a delivery is attempted.
    public enum Reason: String, Sendable {
        case start, clockJump = "clock jump", zoneChange = "zone change", due
        /// settings.json changed (`notif daemon` asks for this one itself).
        case settingsChange = "settings change"
        /// Due today, not sent, and no waiter waits for it (`notif daemon` asks for this one too).
        case unsent = "due, not sent, no waiter"
    }

    /// One attempt to make.
    public struct Attempt: Equatable, Sendable {
        public var id: String
        public var kind: DeliveryKind
        public var reason: Reason
    }

    private var armed: [String: (entry: EmbeddedEntry, zone: ZoneRules, due: Instant)] = [:]
    private var zone: ZoneRules?
    private var lastSeen: Instant?
    private var expectedWake: Instant?
    /// The entries of the last wake, to skip all work on the many wakes where nothing is due.
    private var knownEntries: [EmbeddedEntry] = []

    public init() {}

    /// The earliest armed time.
    public private(set) var nextDue: Instant?

    /// - Parameter zoneOf: the zone of an entry that names one (`TZ` when it was written); the
    ///   others are in `zone`, the daemon's own, which is watched for changes.
    public mutating func wake(now: Instant, zone: ZoneRules, entries: [EmbeddedEntry],
                              zoneOf: (EmbeddedEntry) -> ZoneRules? = { _ in nil }) -> [Attempt] {
        var sweep: Reason?
        if lastSeen == nil {
            sweep = .start
        } else if let last = lastSeen, now.seconds < last.seconds - Self.jumpTolerance
                    || expectedWake.map({ now.seconds > $0.seconds + Self.jumpTolerance }) ?? false {
            sweep = .clockJump
        } else if self.zone != zone {
            sweep = .zoneChange
        }
        self.zone = zone
        lastSeen = now
        expectedWake = nil
        if sweep == nil, entries == knownEntries, nextDue.map({ now < $0 }) ?? true { return [] }

        var attempts: [Attempt] = []
        let current = Set(entries.map(\.id))
        for id in armed.keys where !current.contains(id) { armed[id] = nil }
        for entry in entries.sorted(by: { $0.id < $1.id }) {
            let entryZone = zoneOf(entry) ?? zone
            if let sweep {
                attempts.append(Attempt(id: entry.id, kind: .catchUp, reason: sweep))
            } else if let old = armed[entry.id], old.entry.time == entry.time, old.entry.weekday == entry.weekday {
                if old.zone != entryZone {
                    attempts.append(Attempt(id: entry.id, kind: .catchUp, reason: .zoneChange))
                } else {
                    guard now >= old.due else { continue }
                    attempts.append(Attempt(id: entry.id, kind: .scheduled, reason: .due))
                }
            }
            armed[entry.id] = (entry, entryZone, ReminderClock.nextFire(of: entry.time, recurrence: entry.recurrence, after: now, in: entryZone))
        }
        knownEntries = entries
        nextDue = armed.values.map(\.due).min()
        return attempts
    }

    /// When to wake next, seen from `now`: the earliest armed time, or nil when nothing is armed
    /// (then only a change ends the nap). A wake much later than this is taken for a clock jump.
    public mutating func nextWake(now: Instant) -> Instant? {
        lastSeen = now
        expectedWake = nextDue
        return nextDue
    }
}
