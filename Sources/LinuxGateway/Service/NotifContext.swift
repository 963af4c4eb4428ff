import SharedLogic
import Storage

/// Everything notif's commands depend on from the outside world, injected so tests can fix the
/// clock, the zone, the files and the programs run.
public struct NotifContext: Sendable {
    public var paths: NotifPaths
    public var clock: any Clock
    public var zone: ZoneRules
    public var runner: any ProcessRunner
    /// The process environment (`getenv` in the real program).
    public var lookup: @Sendable (String) -> String?
    /// `--scheduler` / `NOTIF_SCHEDULER`, when given.
    public var forcedScheduler: SchedulerKind?
    public var probe: @Sendable () -> SchedulerProbe
    /// The absolute path scheduled entries run.
    public var executable: String

    public init(
        paths: NotifPaths, clock: any Clock, zone: ZoneRules, runner: any ProcessRunner,
        lookup: @escaping @Sendable (String) -> String?, forcedScheduler: SchedulerKind?,
        probe: @escaping @Sendable () -> SchedulerProbe, executable: String
    ) {
        self.paths = paths
        self.clock = clock
        self.zone = zone
        self.runner = runner
        self.lookup = lookup
        self.forcedScheduler = forcedScheduler
        self.probe = probe
        self.executable = executable
    }

    /// The real machine: the process environment, system clock and zone, spawned processes.
    public static func live(forcedScheduler: SchedulerKind?) -> NotifContext {
        let lookup: @Sendable (String) -> String? = { Posix.environment($0) }
        let paths = NotifPaths.fromEnvironment(lookup)
        let daemonLock = paths.stateFile(EmbeddedScheduler.daemonLockName)
        return NotifContext(
            paths: paths,
            clock: SystemClock(),
            zone: SystemTimeZone.current(environment: lookup("TZ")),
            runner: SpawnProcessRunner(),
            lookup: lookup,
            forcedScheduler: forcedScheduler,
            probe: { SchedulerProbe.live(environment: lookup, daemonLock: daemonLock) },
            executable: FileIO.currentExecutable() ?? "/usr/local/bin/notif")
    }

    public var store: PreferencesStore { PreferencesStore(paths: paths, clock: clock) }
    public var state: StateFiles { StateFiles(paths: paths) }
    public var deliveryLog: DeliveryLog { DeliveryLog(path: paths.deliveryLog) }
}
