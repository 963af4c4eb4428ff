import SharedLogic
import Storage

/// Everything notif's commands depend on from the outside world, injected so tests can fix the
/// clock, the zone, the files and the programs run.
public struct NotifContext: Sendable {
    public var paths: NotifPaths
    public var clock: any WallClock
    /// The time zone, read from the system the first time it is needed (most runs never do).
    public var zone: ZoneRules {
        get { zoneSource.value }
        set { zoneSource = Lazy(newValue) }
    }
    private var zoneSource: Lazy<ZoneRules>
    /// The system zone (/etc/localtime, whatever `TZ` says): the zone cron and a systemd user
    /// manager run jobs in. Read the first time it is needed.
    /// Why `TZ` names no zone (times are then UTC), found as `zone` is; nil when it names one or is unset.
    public var zoneProblem: String? { SystemTimeZone.problem(environment: lookup("TZ")) }

    public var systemZone: ZoneRules {
        get { systemZoneSource.value }
        set { systemZoneSource = Lazy(newValue) }
    }
    private var systemZoneSource: Lazy<ZoneRules> = Lazy { SystemTimeZone.current(environment: nil) }
    /// The zone of a running systemd user manager's own `TZ`, which it reads timer calendars
    /// in; nil when it runs in the system zone (as managers usually do) or none runs
    /// (`SystemdManagerZone`). Asked the first time it is needed.
    public var managerOwnZone: ZoneRules? {
        get { managerOwnZoneSource.value }
        set { managerOwnZoneSource = Lazy(newValue) }
    }
    private var managerOwnZoneSource: Lazy<ZoneRules?> = Lazy(nil)
    public var runner: any ProcessRunner
    /// The process environment (`getenv` in the real program).
    public var lookup: @Sendable (String) -> String?
    /// `--scheduler` / `NOTIF_SCHEDULER`, when given.
    public var forcedScheduler: SchedulerKind?
    /// How the override was given: `--scheduler`, or `NOTIF_SCHEDULER` from the environment.
    public var forcedSchedulerSource = "--scheduler"
    /// The override as the person gave it (`--scheduler cron`, `NOTIF_SCHEDULER=cron`), or nil.
    public var forcedSchedulerWords: String? {
        forcedScheduler.map { SchedulerDetection.overrideWords($0, source: forcedSchedulerSource) }
    }
    public var probe: @Sendable () -> SchedulerProbe
    /// The home directory the password database gives this user: what cron, systemd and a
    /// desktop login set HOME to. nil when unknown (and in tests, unless they set it).
    public var accountHome: @Sendable () -> String? = { nil }
    /// The absolute path of notif's own program, which scheduled entries run: where
    /// /proc/self/exe says this process was started from (without the kernel's " (deleted)").
    /// nil when it cannot be told; never a guess. Entries check it with `isExecutable` and `trust` first.
    public var executable: String? {
        get { executableSource.value }
        set { executableSource = Lazy(newValue) }
    }
    private var executableSource: Lazy<String?>
    /// Whether a path names a file this process may run (`FileIO.isExecutable`; tests may stand in
    /// for an installed notif).
    public var isExecutable: @Sendable (String) -> Bool = { FileIO.isExecutable($0) }
    /// Why another run could not find a path as this one leaves it (`TrustedPath.problem`), or nil:
    /// what entries name must pass (tests stand in for directories under /tmp).
    public var trust: @Sendable (String) -> String? = { TrustedPath.problem($0) }
    /// The toggles and reminders notif knows (`NotifCatalog.standard`; tests pass a longer one).
    public var catalog: NotifCatalog = .standard
    /// Where notifications go: the desktop's notification service, and the reminder's waiter.
    public var desktop: any Desktop = LiveDesktop()

    public init(
        paths: NotifPaths, clock: any WallClock, zone: ZoneRules, runner: any ProcessRunner,
        lookup: @escaping @Sendable (String) -> String?, forcedScheduler: SchedulerKind?,
        probe: @escaping @Sendable () -> SchedulerProbe, executable: String?
    ) {
        self.init(paths: paths, clock: clock, zoneSource: Lazy(zone), runner: runner, lookup: lookup,
                  forcedScheduler: forcedScheduler, probe: probe, executableSource: Lazy(executable))
    }

    private init(
        paths: NotifPaths, clock: any WallClock, zoneSource: Lazy<ZoneRules>, runner: any ProcessRunner,
        lookup: @escaping @Sendable (String) -> String?, forcedScheduler: SchedulerKind?,
        probe: @escaping @Sendable () -> SchedulerProbe, executableSource: Lazy<String?>
    ) {
        self.paths = paths
        self.clock = clock
        self.zoneSource = zoneSource
        self.runner = runner
        self.lookup = lookup
        self.forcedScheduler = forcedScheduler
        self.probe = probe
        self.executableSource = executableSource
    }

    /// The real machine: the process environment, system clock and zone, spawned processes.
    public static func live(forcedScheduler: SchedulerKind?) -> NotifContext {
        let lookup: @Sendable (String) -> String? = { Posix.environment($0) }
        let paths = NotifPaths.fromEnvironment(lookup)
        let daemonLock = paths.stateFile(EmbeddedScheduler.daemonLockName)
        let autostart = Autostart.path(in: paths)
        // The zone and the binary's path are looked up only when needed (the page's first frame
        // needs neither; only scheduled entries need the path).
        var context = NotifContext(
            paths: paths,
            clock: SystemClock(),
            zoneSource: Lazy { SystemTimeZone.current(environment: lookup("TZ")) },
            runner: SpawnProcessRunner(),
            lookup: lookup,
            forcedScheduler: forcedScheduler,
            probe: { SchedulerProbe.live(environment: lookup, daemonLock: daemonLock, autostartEntry: autostart) },
            executableSource: Lazy { FileIO.currentExecutable() })
        // Read from the password database once, however many entries ask.
        let accountHome = Lazy<String?> { Posix.currentUser().home }
        context.accountHome = { accountHome.value }
        context.managerOwnZoneSource = Lazy { SystemdManagerZone.own(runtimeDirectory: lookup("XDG_RUNTIME_DIR")) }
        return context
    }

    /// The configuration this run's entries belong to (its settings file).
    public var configuration: ConfigurationID { ConfigurationID.of(paths, accountHome: accountHome()) }

    public var store: PreferencesStore {
        var store = PreferencesStore(paths: paths, clock: clock)
        store.catalog = catalog
        return store
    }
    public var state: StateFiles { StateFiles(paths: paths) }
    public var deliveryLog: DeliveryLog { DeliveryLog(path: paths.deliveryLog) }
}
