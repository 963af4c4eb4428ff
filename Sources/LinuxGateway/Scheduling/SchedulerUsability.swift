import SharedLogic

/// Whether one scheduler can hold notif's entries on this machine, whether they would fire
/// now, and why, in words the page's chooser and `status` show.
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

    public var kind: SchedulerKind
    public var state: State
    public var reason: String

    public init(kind: SchedulerKind, state: State, reason: String) {
        self.kind = kind
        self.state = state
        self.reason = reason
    }

    /// `auto` keeps entries on a scheduler that can still hold them, even when it is not the one
    /// it would pick today (a user manager that stopped at logout, a cron daemon restarting).
    public var canHold: Bool { state != .unusable }

    /// What the probe says about `kind`. Asks only the facts that `kind` needs.
    public static func of(_ kind: SchedulerKind, probe: SchedulerProbe) -> SchedulerUsability {
        switch kind {
        case .systemd:
            if probe.systemdUserManagerRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "a systemd user manager runs") }
            if probe.systemdBooted {
                return SchedulerUsability(kind: kind, state: .waiting,
                                          reason: "no systemd user manager runs now; its timer starts with the manager at your next login")
            }
            return SchedulerUsability(kind: kind, state: .unusable,
                                      reason: "no systemd user manager runs, and this machine was not started with systemd")
        case .cron:
            if let problem = probe.crontabProblem { return SchedulerUsability(kind: kind, state: .unusable, reason: problem) }
            if probe.cronDaemonRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "the cron daemon runs") }
            return SchedulerUsability(kind: kind, state: .waiting, reason: "the cron daemon is not running; entries fire once it runs")
        case .embedded:
            if probe.embeddedDaemonRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "`notif daemon` runs") }
            if probe.embeddedAutostart {
                return SchedulerUsability(kind: kind, state: .waiting, reason: "`notif daemon` is not running; it starts at your next desktop login")
            }
            return SchedulerUsability(kind: kind, state: .unusable,
                                      reason: "fires only while `notif daemon` runs, and it is not running; `notif daemon --install-autostart` starts it at each login")
        }
    }

    /// Every scheduler, in `SchedulerKind.allCases` order.
    public static func all(probe: SchedulerProbe) -> [SchedulerUsability] {
        SchedulerKind.allCases.map { of($0, probe: probe) }
    }
}
