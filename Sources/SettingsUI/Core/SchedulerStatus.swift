import SharedLogic

/// One line of the scheduler chooser: a choice, whether it can be used here, and why.
public struct SchedulerOption: Equatable, Sendable {
    public var choice: SchedulerPreference
    /// Entries put there would be kept (they may still wait for a login or a daemon: `reason` says).
    public var usable: Bool
    /// Usable, but nothing there fires until something starts (the cron daemon, a user
    /// manager at login, `notif daemon`).
    public var waiting: Bool
    public var reason: String

    public init(choice: SchedulerPreference, usable: Bool, waiting: Bool = false, reason: String) {
        self.choice = choice
        self.usable = usable
        self.waiting = waiting
        self.reason = reason
    }
}

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
    /// False until the scheduler has been looked at (the first frame comes before that).
    public var checked: Bool
    /// What each choice in the chooser means on this machine, in `SchedulerPreference` order.
    public var options: [SchedulerOption]
    /// `--scheduler` picked the scheduler for this run.
    public var overridden: Bool
    /// Said once when the entries just moved to another scheduler (`Moved the reminder from …`).
    public var moved: String?

    public init(scheduler: String? = nil, installed: Set<String>? = nil, warnings: [String] = [],
                nextFire: [String: LocalDateTime] = [:], checked: Bool = true, options: [SchedulerOption] = [],
                overridden: Bool = false, moved: String? = nil) {
        self.scheduler = scheduler
        self.installed = installed
        self.warnings = warnings
        self.nextFire = nextFire
        self.checked = checked
        self.options = options
        self.overridden = overridden
        self.moved = moved
    }
}

/// One notification from an Account project's server, as the History screen lists it.
public struct ServerItem: Equatable, Sendable {
    public var sentAt: String
    public var title: String
    public var body: String
    public init(sentAt: String, title: String, body: String) {
        self.sentAt = sentAt
        self.title = title
        self.body = body
    }
}

/// The History screen's content.
public enum HistoryContent: Equatable, Sendable {
    case loading
    /// Guest: this machine's delivery log, newest first.
    case records([DeliveryRecord])
    /// Account: the server's history; `note` says when it is a cached copy and why.
    case server([ServerItem], note: String?)
    case failed(String)
}
