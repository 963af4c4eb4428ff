import SharedLogic
import Storage

/// `notif deliver ID` and `notif test`: the checks, the notification shown, the outcome recorded.
extension ReminderService {
    /// Held while a run decides and shows (or hands off) a reminder: what makes "once" hold.
    public static let deliverLock = "deliver.lock"

    /// What `notif deliver ID` does, whichever scheduler or run woke notif: under the deliver
    /// lock, the saved settings read again and `DeliveryDecision` asked by the user's clock. A
    /// due reminder goes to its waiter (`Desktop.handOff`), which shows it now or, with no
    /// notification service to reach, waits for one until the day ends. Recorded in
    /// deliveries.jsonl: `delivered` (how late and why, when it was), `waiting`, `failed`, or
    /// `skipped` (due, but the settings do not allow it). A wake that is no attempt (before the
    /// time, shown already, a waiter waiting, an entry newer than today's time) records nothing:
    /// its record is returned for the command line only.
    public func deliver(_ reminder: LocalReminder) -> DeliveryRecord {
        let lock = try? context.state.lock(Self.deliverLock)
        defer { lock?.release() }
        let now = context.clock.now()
        let today = context.zone.localDateTime(of: now).date
        let preferences: NotificationPreferences
        do {
            // A scheduled run may meet settings.json mid-write (an editor saving at 09:00): a file
            // that does not parse, or is not there, is read again once it has been quiet.
            preferences = try context.store.loadSettled().preferences
        } catch {
            // A wake that is no attempt (its answer never needs the settings) records nothing.
            if case .notDue(let why) = decide(reminder, preferences: NotificationPreferences(), now: now) {
                return unlogged(reminder, now: now, why.message)
            }
            return log(reminder.id, kind: .scheduled, now: now, .failed, "cannot read settings: \(error)")
        }
        switch decide(reminder, preferences: preferences, now: now) {
        case .notDue(let why): return unlogged(reminder, now: now, why.message)
        case .skip(let why): return log(reminder.id, kind: .scheduled, now: now, .skipped, why)
        case .deliver: break
        }
        switch context.desktop.handOff(reminder, day: today, context: context) {
        case .shown(let words): return recordShown(reminder, day: today, now: now, waitingSince: nil, words: words)
        case .waiting(let why): return log(reminder.id, kind: .scheduled, now: now, .waiting, DeliveryLateness.waiting(why))
        case .busy: return unlogged(reminder, now: now, DeliveryDecision.NotDue.waiting.message)
        case .failed(let why): return log(reminder.id, kind: .scheduled, now: now, .failed, why)
        }
    }

    /// `DeliveryDecision.decide` with what the state directory knows: the day last shown, when the
    /// entry began, and whether a waiter waits.
    public func decide(_ reminder: LocalReminder, preferences: NotificationPreferences, now: Instant, waiting: Bool? = nil) -> DeliveryDecision {
        DeliveryDecision.decide(reminder, preferences: preferences, now: now, zone: context.zone,
                                shown: context.state.lastShown()[reminder.id], entrySince: entrySince(of: reminder),
                                waiting: waiting ?? context.state.isWaiting(reminder.id))
    }

    /// Records `reminder` shown for local `day` at `now`: the day (once per day), and a
    /// `delivered` record saying how late and why when it was (`waitingSince`: when its waiter
    /// began, or the day's first one when an earlier waiter ended, at a logout say; `waitingProblem`:
    /// why its last try before could not send it).
    public func recordShown(_ reminder: LocalReminder, day: CivilDate, now: Instant, waitingSince: Instant?, waitingProblem: String? = nil,
                            words: String) -> DeliveryRecord {
        // A run that sent it without waiting names an earlier failure instead (a waiter ended
        // while a service was there): "no notification service" would not be true.
        let since = waitingSince.map { mine in first(.waiting, of: reminder, on: day).map { $0.at.seconds < mine.seconds ? $0.at : mine } ?? mine }
        // Sent by a later run: the first run that failed is named, or a waiter that ended without
        // a record of its own (killed).
        let failed = since != nil ? nil : first(.failed, of: reminder, on: day)
            ?? first(.waiting, of: reminder, on: day).map { (at: $0.at, why: "its waiter ended before it could send it") }
        let late = DeliveryLateness.late(reminder, day: day, shownAt: now, waitingSince: since, waitingProblem: waitingProblem,
                                         failedSince: failed, zone: context.zone)
        var detail = (late.map { $0 + "; " } ?? "") + DeliveryLateness.accepted + " " + words
        do {
            try context.state.recordDelivered(reminder.id, on: day, at: now, zone: context.zone)
        } catch {
            detail += "; could not record the day: \(error)"
        }
        return log(reminder.id, kind: .scheduled, now: now, .delivered, detail, day: day)
    }

    /// The first run of `day` with `outcome` for `reminder` (one that failed, one whose waiter
    /// began), and its detail, from deliveries.jsonl.
    func first(_ outcome: DeliveryOutcome, of reminder: LocalReminder, on day: CivilDate) -> (at: Instant, why: String)? {
        let found = (try? context.deliveryLog.newest(20) { $0.reminder == reminder.id && $0.day == day && $0.kind == .scheduled && $0.outcome == outcome }) ?? []
        return found.compactMap { record in ISO8601.parse(record.time).map { (at: $0, why: record.detail) } }.min { $0.at.seconds < $1.at.seconds }
    }

    /// `notif test`: a notification now, without buttons, whatever the reminder toggles say, once
    /// notifications are allowed; never counts as a day's delivery.
    public func test() -> DeliveryRecord {
        let reminder = LocalReminders.testNotification
        let now = context.clock.now()
        let preferences: NotificationPreferences
        do {
            preferences = try context.store.load().preferences
        } catch {
            return log(reminder.id, kind: .test, now: now, .failed, "cannot read settings: \(error)")
        }
        if case .skip(let why) = DeliveryDecision.decideTest(preferences: preferences) {
            return log(reminder.id, kind: .test, now: now, .skipped, why)
        }
        switch show(summary: reminder.title, body: reminder.body) {
        case .success(let how): return log(reminder.id, kind: .test, now: now, .delivered, how)
        case .failure(let error): return log(reminder.id, kind: .test, now: now, .failed, error.message)
        }
    }

    /// Sends one notification (no buttons, no waiting) on the session buses a run can find:
    /// `accepted by the notification service through …`, or why not.
    public func show(summary: String, body: String) -> Result<String, GatewayError> {
        context.desktop.show(summary: summary, body: body, context: context).map { DeliveryLateness.accepted + " " + $0 }
    }

    /// When `reminder`'s entry of this configuration began, as `apply` recorded it.
    func entrySince(of reminder: LocalReminder) -> EntrySince? {
        context.state.entrySince()[entrySinceKey(reminder.id)]
    }

    /// `ID.TAG`: each configuration's entries begin on their own.
    func entrySinceKey(_ id: String) -> String { id + "." + context.configuration.tag }

    /// The record of a wake that is no attempt: returned, never logged.
    private func unlogged(_ reminder: LocalReminder, now: Instant, _ detail: String) -> DeliveryRecord {
        DeliveryRecord(time: ISO8601.format(now, in: context.zone), day: context.zone.localDateTime(of: now).date,
                       reminder: reminder.id, kind: .scheduled, outcome: .skipped, detail: detail)
    }
}
