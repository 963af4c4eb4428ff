/// How a nap of the built-in scheduler ended.
public enum NapEnd: Equatable, Sendable {
    /// The time passed (or something harmless woke it early): look at the clock again.
    case elapsed
    /// SIGTERM or SIGINT: stop now.
    case stop
}

/// Waits between wakes of `notif daemon`. The real one waits for a signal with a timeout;
/// tests move a simulated clock forward instead, so a year runs in moments.
public protocol DaemonSleeper: AnyObject {
    func nap(seconds: Int64) -> NapEnd
}
