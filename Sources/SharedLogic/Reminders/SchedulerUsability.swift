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

        /// `usable`, `usable, not running yet`, `not usable`: as `status` and the page's chooser say it.
        public var label: String {
            switch self {
            case .ready: return "usable"
            case .waiting: return "usable, not running yet"
            case .unusable: return "not usable"
            }
        }
    }

    public var choice: SchedulerPreference
    public var state: State
    public var reason: String

    public init(choice: SchedulerPreference, state: State, reason: String) {
        self.choice = choice
        self.state = state
        self.reason = reason
    }

    public init(kind: SchedulerKind, state: State, reason: String) {
        self.init(choice: SchedulerPreference(kind), state: state, reason: reason)
    }

    /// `auto` keeps entries on a scheduler that can still hold them, even when it is not the one
    /// it would pick today (a user manager that stopped at logout, a cron daemon restarting).
    public var canHold: Bool { state != .unusable }
}
