import SharedLogic

/// Which scheduler notif uses, and what the person should know about that choice.
public struct SchedulerChoice: Equatable, Sendable {
    /// nil when no scheduler can hold entries here.
    public var kind: SchedulerKind?
    /// Chosen with `--scheduler` / `NOTIF_SCHEDULER`, for this run only.
    public var forced: Bool
    /// The saved `scheduler` setting.
    public var preference: SchedulerPreference
    /// Why `kind`, in a few words (`you chose cron`, `it holds the reminder`...).
    public var why: String
    /// Why there is none, or why the chosen one will not fire yet.
    public var warnings: [String]

    public init(kind: SchedulerKind?, forced: Bool, preference: SchedulerPreference = .auto, why: String = "", warnings: [String] = []) {
        self.kind = kind
        self.forced = forced
        self.preference = preference
        self.why = why
        self.warnings = warnings
    }
}

/// Picks the scheduler. `decide` holds the rules for the saved choice; `choose` is the pick
/// `auto` makes when it has to: systemd when a user manager runs, then cron when its daemon
/// runs and `crontab` is allowed, then the built-in scheduler (with a warning unless
/// `notif daemon` runs).
public enum SchedulerDetection {
    /// The scheduler for this run:
    /// - `--scheduler` (`override`) wins, for this run only;
    /// - a saved scheduler by name is used, except that entries an override put elsewhere stay
    ///   there while that scheduler can hold them, until the saved choice changes or is made
    ///   again (`choosing`: `notif set scheduler`, the page's chooser);
    /// - `auto` keeps the entries where they are (`placement`) while that scheduler can still
    ///   hold them, so a probe that changes for a moment never moves them; otherwise it picks.
    public static func decide(
        override: SchedulerKind?, saved: SchedulerPreference, placement: SchedulerPlacement?, choosing: Bool,
        probe: SchedulerProbe, available: Set<SchedulerKind>, overrideSource: String = "--scheduler"
    ) -> SchedulerChoice {
        if let override {
            return SchedulerChoice(kind: override, forced: true, preference: saved,
                                   why: "\(overrideWords(override, source: overrideSource)) was given for this run",
                                   warnings: warnings(for: override, probe: probe))
        }
        let named: SchedulerKind? = SchedulerKind(rawValue: saved.rawValue)
        var lost = ""
        if let placement, available.contains(placement.holder), placement.holder != named,
           named == nil || placement.keptOffNamedChoice(saved: saved, choosing: choosing) {
            let holder = placement.holder
            let usability = SchedulerUsability.of(holder, probe: probe)
            if holder == .cron, let problem = probe.crontabProblem, probe.cronDaemonRunning {
                // Without `crontab` notif can neither read nor remove its lines, and the cron
                // daemon still runs them: moving would leave a second entry notif cannot see.
                return SchedulerChoice(kind: holder, forced: false, preference: saved,
                                       why: "cron holds the reminder and its daemon still runs it, but notif cannot use crontab: \(problem)",
                                       warnings: ["the reminder stays with cron, where it may still fire, but notif cannot use crontab to check or change its entry: \(problem); make crontab usable and run `notif apply`, or choose another scheduler with `notif set scheduler`"])
            }
            if usability.canHold {
                let why = named.map { "\(holder.rawValue) holds the reminder (put there with \(placement.override ?? "--scheduler"); `notif set scheduler \($0.rawValue)` moves it)" }
                    ?? "\(holder.rawValue) holds the reminder and can still hold it"
                return SchedulerChoice(kind: holder, forced: false, preference: saved, why: why, warnings: warnings(for: holder, probe: probe))
            }
            lost = "\(holder.rawValue) can no longer hold it: \(usability.reason); "
        }
        if let named {
            return SchedulerChoice(kind: named, forced: false, preference: saved, why: lost + "you chose \(named.rawValue)",
                                   warnings: warnings(for: named, probe: probe))
        }
        var picked = choose(forced: nil, probe: probe, available: available)
        picked.preference = saved
        picked.why = (picked.kind == placement?.holder ? "" : lost) + "auto picked \(picked.kind?.rawValue ?? "none"): " + picked.why
        return picked
    }

    /// How an override was given, as the person typed it: `--scheduler cron`, or
    /// `NOTIF_SCHEDULER=cron` when it came from the environment (`source` is the variable's name).
    public static func overrideWords(_ kind: SchedulerKind, source: String) -> String {
        source.hasPrefix("-") ? "\(source) \(kind.rawValue)" : "\(source)=\(kind.rawValue)"
    }

    /// The pick when nothing else decides: the first of systemd, cron and the built-in scheduler
    /// that runs here (or only `forced`).
    public static func choose(forced: SchedulerKind?, probe: SchedulerProbe, available: Set<SchedulerKind>) -> SchedulerChoice {
        if let forced {
            return SchedulerChoice(kind: forced, forced: true, why: "--scheduler \(forced.rawValue)", warnings: warnings(for: forced, probe: probe))
        }
        if probe.systemdUserManagerRunning && available.contains(.systemd) {
            return SchedulerChoice(kind: .systemd, forced: false, why: "a systemd user manager runs")
        }
        if probe.cronDaemonRunning && probe.crontabProblem == nil && available.contains(.cron) {
            return SchedulerChoice(kind: .cron, forced: false, why: "the cron daemon runs")
        }
        if available.contains(.embedded) {
            let why = probe.cronDaemonRunning
                ? "no systemd user manager runs and cron cannot be used: \(probe.crontabProblem ?? "crontab refused")"
                : "neither a systemd user manager nor the cron daemon runs, and `notif daemon`, the built-in scheduler, is the one you can start yourself"
            return SchedulerChoice(kind: .embedded, forced: false, why: why,
                                   warnings: warnings(for: .embedded, probe: probe))
        }
        var why = ["no systemd user manager is running"]
        if let problem = probe.crontabProblem {
            why.append(problem)
        } else if !probe.cronDaemonRunning {
            why.append("the cron daemon is not running")
        }
        return SchedulerChoice(kind: nil, forced: false, why: why.joined(separator: ", "), warnings: [
            "no scheduler available: " + why.joined(separator: ", ")
                + "; start cron, or choose one with `notif set scheduler cron`",
        ])
    }

    static func warnings(for kind: SchedulerKind, probe: SchedulerProbe) -> [String] {
        switch kind {
        case .systemd:
            if probe.systemdUserManagerRunning { return [] }
            // Only a machine started with systemd starts a user manager at login; elsewhere the
            // timer never fires (the status's "cannot fire", in the same words).
            return probe.systemdBooted
                ? ["no systemd user manager is running: the timer is enabled and starts with the manager at your next login"]
                : ["systemd's timers cannot fire on this machine: " + StatusWords.cannotFire(.noSystemd)]
        case .cron:
            var result: [String] = []
            if let problem = probe.crontabProblem { result.append(problem) }
            if !probe.cronDaemonRunning { result.append("the cron daemon is not running: entries will not fire until it runs") }
            return result
        case .embedded:
            if probe.embeddedDaemonRunning { return [] }
            return probe.embeddedAutostart
                ? ["embedded: `notif daemon` is not running; its autostart entry starts it at your next desktop login (run `notif daemon` to start it now)"]
                : ["embedded: `notif daemon` is not running, and the built-in scheduler only fires while it runs; start it, or run `notif daemon --install-autostart` so it starts at each login"]
        }
    }
}
