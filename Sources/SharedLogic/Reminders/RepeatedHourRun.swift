/// A run a cron daemon makes at one minute past the hour, every hour, on some days of one month:
/// how a reminder reaches a user whose time comes while the daemon's clock repeats an hour
/// after falling back (`SchedulerTimes.repeatedHourRuns`).
public struct RepeatedHourRun: Hashable, Sendable {
    public let minute: Int
    public let month: Int
    /// Days of the month, ascending.
    public let days: [Int]

    public init(minute: Int, month: Int, days: [Int]) {
        self.minute = minute
        self.month = month
        self.days = days
    }

    struct Key: Hashable {
        let minute: Int
        let month: Int
    }
}
