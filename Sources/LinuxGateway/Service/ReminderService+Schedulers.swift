import SharedLogic
import Storage

/// Which scheduler holds the entries: the choice for this run, where the last apply put them, and each gateway.
extension ReminderService {
    static let crontabLock = "crontab.lock"

    /// The schedulers this build can drive.
    public static let availableSchedulers: Set<SchedulerKind> = [.systemd, .cron, .embedded]

    /// The scheduler for `preferences` on this run (see `SchedulerDetection.decide`).
    /// - Parameter choosing: the saved choice was just made (`notif set scheduler`, the page's
    ///   chooser), so it is honoured even when it did not change.
    public func schedulerChoice(for preferences: NotificationPreferences, probe: SchedulerProbe? = nil, choosing: Bool = false) -> SchedulerChoice {
        schedulerChoice(for: preferences, placement: placement(), probe: probe ?? context.probe(), choosing: choosing)
    }

    func schedulerChoice(for preferences: NotificationPreferences, placement: SchedulerPlacement?, probe: SchedulerProbe,
                         choosing: Bool) -> SchedulerChoice {
        SchedulerDetection.decide(override: context.forcedScheduler, saved: preferences.scheduler, placement: placement,
                                  choosing: choosing, probe: probe, available: Self.availableSchedulers,
                                  overrideSource: context.forcedSchedulerSource)
    }

    /// What `auto` would use now, and why (the page's chooser shows it before anything is chosen).
    public func autoChoice(probe: SchedulerProbe? = nil) -> SchedulerChoice {
        var preferences = NotificationPreferences()
        preferences.scheduler = .auto
        var context = self.context
        context.forcedScheduler = nil
        return ReminderService(context: context).schedulerChoice(for: preferences, placement: placement(), probe: probe ?? self.context.probe(),
                                                                 choosing: false)
    }

    /// Where the last finished apply put the entries, and under which saved choice.
    public func placement() -> SchedulerPlacement? {
        (try? context.state.read(schedulerRecord))?.flatMap(SchedulerPlacement.init(parsing:))
    }

    /// The scheduler the last finished apply used.
    public func recordedScheduler() -> SchedulerKind? { placement()?.holder }

    public func gateway(for kind: SchedulerKind) -> (any LocalNotificationGateway)? {
        let owner = context.configuration
        let context = self.context
        switch kind {
        case .cron:
            return CronGateway(runner: context.runner, lockPath: context.paths.stateFile(Self.crontabLock), owner: owner,
                               systemZone: { context.systemZone }, clock: context.clock)
        case .systemd:
            let probe = context.probe
            return SystemdTimerGateway(runner: context.runner, paths: context.paths, owner: owner, systemZone: { context.systemZone },
                                       managerOwnZone: { context.managerOwnZone },
                                       clock: context.clock, managerRunning: { probe().systemdUserManagerRunning })
        case .embedded: return EmbeddedScheduler(paths: context.paths, owner: owner)
        }
    }


    /// The state file naming the scheduler that holds this configuration's entries: `scheduler`
    /// for the default configuration, `scheduler-TAG` for another one sharing the state directory.
    public var schedulerRecord: String {
        let owner = context.configuration
        return owner.isDefault ? StateFiles.schedulerFile : StateFiles.schedulerFile + "-" + owner.tag
    }
}
