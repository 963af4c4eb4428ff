import SharedLogic

extension SchedulerUsability {
    /// What the probe says about `kind`. Asks only the facts that `kind` needs.
    public static func of(_ kind: SchedulerKind, probe: SchedulerProbe) -> SchedulerUsability {
        switch kind {
        case .systemd:
            if probe.systemdUserManagerRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "a systemd user manager runs") }
            if probe.systemdBooted {
                return SchedulerUsability(kind: kind, state: .waiting,
                                          reason: "no systemd user manager runs now; its timer starts with the manager at your next login",
                                          once: "once your systemd user manager starts at your next login")
            }
            return SchedulerUsability(kind: kind, state: .unusable,
                                      reason: "no systemd user manager runs, and this machine was not started with systemd")
        case .cron:
            if let problem = probe.crontabProblem { return SchedulerUsability(kind: kind, state: .unusable, reason: problem) }
            if probe.cronDaemonRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "the cron daemon runs") }
            return SchedulerUsability(kind: kind, state: .waiting, reason: "the cron daemon is not running; entries fire once it runs",
                                      once: "once the cron daemon runs")
        case .embedded:
            if probe.embeddedDaemonRunning { return SchedulerUsability(kind: kind, state: .ready, reason: "`notif daemon` runs") }
            if probe.embeddedAutostart {
                return SchedulerUsability(kind: kind, state: .waiting, reason: "`notif daemon` is not running; it starts at your next desktop login",
                                          once: "once `notif daemon` starts at your next desktop login")
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
