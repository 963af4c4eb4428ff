/// The words a reminder's records use for when it came: sent late and why, waiting for a
/// notification service, or a day missed. notif knows that the notification service accepted a
/// notification (`Notify` answered with its id), never that anyone saw it: under Do Not Disturb
/// most servers keep it off the screen and tell the sender nothing. So the words say accepted
/// and sent, never shown or seen.
public enum DeliveryLateness {
    /// What a notification service's answer to `Notify` tells: `accepted by the notification service`.
    public static let accepted = "accepted by the notification service"

    /// Shown by the first run this many seconds or more after its time, a reminder is late
    /// (schedulers start runs within a second or two). Shown by its waiter, it is late however
    /// few seconds it waited.
    public static let lateAfter: Int64 = 60

    /// `sent 09:02, 2 min late: no notification service until then`, or nil when it was on time.
    /// - Parameters:
    ///   - waitingSince: when a run found no notification service and its waiter began
    ///     (nil: the run that showed it is the first that came).
    ///   - waitingProblem: why the waiter could not send it at its last try before: a service
    ///     that did not answer is named; anything else is "no notification service".
    ///   - failedSince: when an earlier run that day failed, and why (settings.json could not
    ///     be read, say): the reason it came late, rather than a guess.
    public static func late(_ reminder: LocalReminder, day: CivilDate, shownAt: Instant, waitingSince: Instant?, waitingProblem: String? = nil,
                            failedSince: (at: Instant, why: String)? = nil, zone: ZoneRules) -> String? {
        let due = ReminderClock.fireInstant(of: reminder.time, on: day, in: zone)
        let late = shownAt.seconds - due.seconds
        guard late >= (waitingSince == nil ? lateAfter : 1) else { return nil }
        let why: String
        if let waitingSince {
            let noRun = waitingSince.seconds - due.seconds >= lateAfter ? "no run until \(clock(waitingSince, zone)), then " : nil
            // A service that was there and did not answer is named; no service (or no bus) is
            // what "no notification service" says.
            if let waitingProblem, waitingProblem.contains("did not answer") {
                why = (noRun ?? "waited from \(clock(waitingSince, zone)): ") + waitingProblem
            } else {
                why = (noRun ?? "") + "no notification service until then"
            }
        } else if let failedSince, failedSince.at.seconds >= due.seconds {
            // Its first clause: the advice after it was for then, not for a record of the sending.
            why = "the run at \(clock(failedSince.at, zone)) failed: \(failedSince.why.split(separator: ";", maxSplits: 1).first.map(String.init) ?? failedSince.why)"
        } else {
            why = "the first run since \(reminder.time) (the machine was off or asleep, its clock or zone changed, or no scheduler ran)"
        }
        return "sent \(clock(shownAt, zone)), \(duration(late)) late: \(why)"
    }

    /// A `waiting` record: `not sent yet: WHY; it is sent as soon as a notification service takes
    /// it, until the day ends` (WHY says whether none ran or one did not answer).
    public static func waiting(_ why: String) -> String {
        "not sent yet: \(why); it is sent as soon as a notification service takes it, until the day ends"
    }

    /// The next reminder while a waiter waits: `today's, waiting since 09:00 for a notification service`.
    public static func waitingNext(since: Instant, zone: ZoneRules) -> String {
        "today's, waiting since \(clock(since, zone)) for a notification service"
    }

    /// A `missed` record: `no notification service from 09:00 until the day ended (WHY)`.
    public static func missed(waitingSince: Instant, lastProblem: String, zone: ZoneRules) -> String {
        "no notification service from \(clock(waitingSince, zone)) until the day ended (\(lastProblem))"
    }

    /// `45 s`, `2 min`, `1 h`, `4 h 5 min` (whole minutes from a minute on).
    public static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(max(0, seconds)) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }

    /// `09:02` in `zone`.
    static func clock(_ instant: Instant, _ zone: ZoneRules) -> String {
        let local = zone.localDateTime(of: instant)
        return DailyTime(hour: local.hour, minute: local.minute).description
    }
}
