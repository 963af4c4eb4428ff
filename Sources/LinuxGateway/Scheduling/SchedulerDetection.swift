/// Which scheduler notif uses, and what the person should know about that choice.
public struct SchedulerChoice: Equatable, Sendable {
    /// nil when no scheduler can hold entries here.
    public var kind: SchedulerKind?
    /// Chosen with `--scheduler` / `NOTIF_SCHEDULER`.
    public var forced: Bool
    /// Why there is none, or why the chosen one will not fire yet.
    public var warnings: [String]

    public init(kind: SchedulerKind?, forced: Bool, warnings: [String] = []) {
        self.kind = kind
        self.forced = forced
        self.warnings = warnings
    }
}

/// Picks the scheduler: a forced one always (with a warning when its daemon is not running);
/// otherwise systemd when a user manager runs, then cron when its daemon runs and `crontab` is
/// allowed, then the built-in scheduler (with a warning unless `notif daemon` runs).
public enum SchedulerDetection {
    public static func choose(forced: SchedulerKind?, probe: SchedulerProbe, available: Set<SchedulerKind>) -> SchedulerChoice {
        if let forced {
            return SchedulerChoice(kind: forced, forced: true, warnings: warnings(for: forced, probe: probe))
        }
        if probe.systemdUserManagerRunning && available.contains(.systemd) {
            return SchedulerChoice(kind: .systemd, forced: false)
        }
        if probe.cronDaemonRunning && probe.crontabProblem == nil && available.contains(.cron) {
            return SchedulerChoice(kind: .cron, forced: false)
        }
        if available.contains(.embedded) {
            return SchedulerChoice(kind: .embedded, forced: false, warnings: warnings(for: .embedded, probe: probe))
        }
        var why = ["no systemd user manager is running"]
        if let problem = probe.crontabProblem {
            why.append(problem)
        } else if !probe.cronDaemonRunning {
            why.append("the cron daemon is not running")
        }
        return SchedulerChoice(kind: nil, forced: false, warnings: [
            "no scheduler available: " + why.joined(separator: ", ")
                + " (start cron, or force one with --scheduler cron)",
        ])
    }

    static func warnings(for kind: SchedulerKind, probe: SchedulerProbe) -> [String] {
        switch kind {
        case .systemd:
            return probe.systemdUserManagerRunning ? [] : [
                "no systemd user manager is running: the timer is enabled and starts with the manager at your next login",
            ]
        case .cron:
            var result: [String] = []
            if let problem = probe.crontabProblem { result.append(problem) }
            if !probe.cronDaemonRunning { result.append("the cron daemon is not running: entries will not fire until it runs") }
            return result
        case .embedded:
            return probe.embeddedDaemonRunning ? [] : [
                "embedded: `notif daemon` is not running, and the built-in scheduler only fires while it runs; start it, or run `notif daemon --install-autostart` so it starts at each login",
            ]
        }
    }
}
