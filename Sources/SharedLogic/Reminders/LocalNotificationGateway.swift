/// What a gateway installs for one planned reminder: when, in which zone, and the commands that deliver it.
public struct ScheduledEntry: Hashable, Sendable {
    public let reminder: LocalReminder
    /// The command's argv, absolute binary path first (`/usr/local/bin/notif deliver --quiet tips-and-updates`),
    /// or `/usr/bin/env VAR=... PROGRAM ...` when variables go with it.
    public let command: [String]
    /// The same delivery as a catch-up (`notif deliver --quiet --catch-up ID`): it shows the reminder only
    /// when today's time has passed and today's was not shown, so it is safe to run at boot or late.
    public let catchUpCommand: [String]
    /// notif's own program, which both commands run: an entry does nothing once it is gone.
    public let program: String
    /// The zone the reminder's time is in: the one notif shows (`TZ` when set, else the system zone).
    public let zone: ZoneRules
    /// `TZ` as it was set when the entry was made (it goes with the commands), nil when notif
    /// used the system zone: the entry then follows the system zone as the scheduler does.
    public let zoneVariable: String?
    /// The home directory the commands' run uses when they carry no `HOME` (the account's), for
    /// a scheduler whose jobs may be given another one (a crontab's `HOME=` line); nil: not known.
    public let home: String?

    public init(reminder: LocalReminder, command: [String], catchUpCommand: [String], program: String? = nil,
                zone: ZoneRules = .utc, zoneVariable: String? = nil, home: String? = nil) {
        self.reminder = reminder
        self.command = command
        self.catchUpCommand = catchUpCommand
        self.program = program ?? command.first ?? ""
        self.zone = zone
        self.zoneVariable = zoneVariable
        self.home = home
    }
}

/// A gateway failure, in words a person can act on (it names the command or file at fault).
public struct GatewayError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The scheduler's own program is not installed, so nothing of notif's can fire there.
    public let schedulerMissing: Bool
    public init(_ message: String, schedulerMissing: Bool = false) {
        self.message = message
        self.schedulerMissing = schedulerMissing
    }
    public var description: String { message }
}

/// A scheduler that can hold notif's daily entries (cron, systemd user timers, the built-in one).
public protocol LocalNotificationGateway {
    /// The scheduler's name as `--scheduler` spells it.
    var name: String { get }
    /// The entries notif owns there, by reminder id, each as `render` would write it.
    func installed() throws(GatewayError) -> [String: String]
    /// The exact text this gateway writes for `entry`, so `apply` can tell current entries from stale ones.
    func render(_ entry: ScheduledEntry) throws(GatewayError) -> String
    /// Adds or replaces the entry for `entry.reminder.id`.
    func install(_ entry: ScheduledEntry) throws(GatewayError)
    /// Removes the entry for `id`; removing a missing entry is not an error.
    func cancel(_ id: String) throws(GatewayError)
    /// An installed entry (`text` as `installed()` reported it for `id`) read back: whether the
    /// scheduler will start it, notif's program it runs, and when it really fires (in the
    /// scheduler's words; `userZone` is the zone notif shows). `current` and `programRunnable`
    /// are left for the caller, which knows what apply would write and can look at files.
    func entry(_ id: String, installed text: String, userZone: ZoneRules) -> InstalledEntry
}

extension LocalNotificationGateway {
    public func entry(_ id: String, installed text: String, userZone: ZoneRules) -> InstalledEntry {
        InstalledEntry(id: id, current: false)
    }
}
