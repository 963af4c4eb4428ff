import SharedLogic

/// What the shell knows about the scheduler, for the page's status area.
public struct SchedulerStatus: Equatable, Sendable {
    /// `cron`, `systemd`, `embedded`; nil when none can be used.
    public var scheduler: String?
    /// Reminder ids installed there; nil when unknown (not read yet, or unreadable).
    public var installed: Set<String>?
    /// Things the person should know (daemon not running, no scheduler...).
    public var warnings: [String]
    /// The next firing of each reminder in local time, whatever the settings.
    public var nextFire: [String: LocalDateTime]

    public init(scheduler: String? = nil, installed: Set<String>? = nil, warnings: [String] = [], nextFire: [String: LocalDateTime] = [:]) {
        self.scheduler = scheduler
        self.installed = installed
        self.warnings = warnings
        self.nextFire = nextFire
    }
}

/// The History screen's content.
public enum HistoryContent: Equatable, Sendable {
    case loading
    case records([DeliveryRecord])
    case failed(String)
}
