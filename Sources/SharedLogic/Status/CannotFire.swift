/// Why an installed entry will not fire, although it is there.
public enum CannotFire: Equatable, Sendable {
    /// The entry runs notif's program at this path, which is gone or not executable.
    case programMissing(String)
    /// A systemd timer, but no systemd user manager runs and the machine was not started with systemd.
    case noSystemd
    /// A built-in entry, but `notif daemon` is not running and nothing starts it at login.
    case daemonNotRunning
    /// cron runs it with a shell that a line put inside notif's block by hand sets (the line):
    /// notif cannot tell whether it runs at all, and no run of notif mends it.
    case shellByHand(String)
}

/// Why no next reminder time can be given.
public enum NoReminderReason: Equatable, Sendable {
    /// Nothing is planned: the first reminder's reason (the master switch, its toggle, permission, Account).
    case blocked(BlockReason, reminderID: String)
    /// A reminder is planned but no scheduler can hold it.
    case noScheduler
    /// A reminder is planned but the scheduler's entries could not be read.
    case unreadable
    /// A reminder is planned but its entry is not there (`notif apply` installs it).
    case notInstalled
    /// A reminder is planned, its entry is not there, and notif cannot write it: why.
    case cannotWrite(String)
    /// Its entry is there but cannot fire.
    case cannotFire(CannotFire)
    /// Its entry is there, but none of its runs comes at the reminder's time where `notif deliver` counts it.
    case neverShows
    /// settings.json cannot be read: `notif deliver` shows nothing until it can (the entries are kept).
    case settingsUnreadable
    /// notif defines no reminder at all.
    case nothingDefined
}

/// The next moment a reminder fires, or why none will.
public enum NextReminder: Equatable, Sendable {
    /// `wanted`: the reminder's time in the zone notif shows, when the entries fire at another.
    case at(Instant, reminderID: String, wanted: Instant? = nil)
    /// Today's is due and not sent yet: its waiter waits, since `since`, for a notification
    /// service to send it as soon as one comes.
    case waiting(reminderID: String, since: Instant)
    case none(NoReminderReason)
}

/// One way the scheduler's entries differ from the plan.
public enum SyncProblem: Equatable, Sendable {
    /// Planned, no entry.
    case notInstalled(String)
    /// Planned, but the entry is not the one `apply` would write now (another command or zone).
    case differs(String)
    /// Planned, the entry is right but the scheduler will not start it (a systemd timer not enabled).
    case notEnabled(String)
    /// An entry that is not planned.
    case notPlanned(String)
    /// Planned, but no scheduler can hold it.
    case noScheduler(String)
    /// The scheduler's entries could not be read (so they may still hold something).
    case unreadable(SchedulerKind)
    /// Planned and installed, but on a scheduler the next apply moves it off (to the second one).
    case elsewhere(String, on: SchedulerKind, movesTo: SchedulerKind)
}
