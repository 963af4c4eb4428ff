import SharedLogic

/// How a nap of the built-in scheduler ended.
public enum NapEnd: Equatable, Sendable {
    /// The wake time came: look at the clock again.
    case elapsed
    /// The real-time clock was set, or the machine resumed from suspend.
    case clockChanged
    /// Something the daemon watches changed (the zone, the settings, the entries), or SIGHUP.
    case changed
    /// SIGTERM or SIGINT: stop now.
    case stop
}

/// Waits between wakes of `notif daemon`. The real one sleeps on an absolute timer and file
/// change notices; tests move a simulated clock forward instead, so a year runs in moments.
public protocol DaemonSleeper: AnyObject {
    /// Sleeps until `wake` on the real-time clock (nil: no timer at all), or until something
    /// that may matter happens first.
    func nap(until wake: Instant?) -> NapEnd
}
