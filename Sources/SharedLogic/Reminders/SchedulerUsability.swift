/// Whether one scheduler choice can hold notif's entries on this machine, whether they would
/// fire now, and why, in words the page's chooser and `status` show. `auto` is always ready:
/// its reason says what it would pick now.
public struct SchedulerUsability: Equatable, Sendable {
    /// How far a scheduler is from firing an entry put there.
    public enum State: Equatable, Sendable {
        /// Entries there fire.
        case ready
        /// Entries there are kept and fire once something starts (a login, the daemon).
        case waiting
        /// Nothing put there would fire, or it cannot take entries at all.
        case unusable

        /// `ready`, `waiting`, `unusable`: as `status --json` spells it.
        public var word: String {
            switch self {
            case .ready: return "ready"
            case .waiting: return "waiting"
            case .unusable: return "unusable"
            }
        }
    }

    public var choice: SchedulerPreference
    public var state: State
    public var reason: String
    /// When it is `waiting`, what its entries wait for, to follow their time
    /// (`once the cron daemon runs`).
    public var once: String?

    public init(choice: SchedulerPreference, state: State, reason: String, once: String? = nil) {
        self.choice = choice
        self.state = state
        self.reason = reason
        self.once = once
    }

    public init(kind: SchedulerKind, state: State, reason: String, once: String? = nil) {
        self.init(choice: SchedulerPreference(kind), state: state, reason: reason, once: once)
    }

    /// How `status` and the page's chooser name its state: `usable`, `usable, not running yet`,
    /// `not usable`; for the scheduler holding the reminder, `in use` first (`in use for this
    /// run` when an override put it there), then `not running yet` or `cannot fire` when so.
    public func label(inUse: Bool, forThisRun: Bool = false) -> String {
        guard inUse else {
            switch state {
            case .ready: return "usable"
            case .waiting: return "usable, not running yet"
            case .unusable: return "not usable"
            }
        }
        let words = forThisRun ? "in use for this run" : "in use"
        switch state {
        case .ready: return words
        case .waiting: return words + ", not running yet"
        case .unusable: return words + ", cannot fire"
        }
    }

    /// `auto` keeps entries on a scheduler that can still hold them, even when it is not the one
    /// it would pick today (a user manager that stopped at logout, a cron daemon restarting).
    public var canHold: Bool { state != .unusable }
}
