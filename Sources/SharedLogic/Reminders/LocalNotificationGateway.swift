/// What a gateway installs for one planned reminder: when, and the commands that deliver it.
public struct ScheduledEntry: Hashable, Sendable {
    public let reminder: LocalReminder
    /// The command's argv, absolute binary path first (`/usr/local/bin/notif deliver tips-and-updates`).
    public let command: [String]
    /// The same delivery as a catch-up (`notif deliver --catch-up ID`): it shows the reminder only
    /// when today's time has passed and today's was not shown, so it is safe to run at boot or late.
    public let catchUpCommand: [String]

    public init(reminder: LocalReminder, command: [String], catchUpCommand: [String]) {
        self.reminder = reminder
        self.command = command
        self.catchUpCommand = catchUpCommand
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
}
