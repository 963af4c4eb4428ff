import SharedLogic
import Storage

/// deliveries.jsonl: one record appended per delivery attempt.
extension ReminderService {
    /// Appends a record to deliveries.jsonl (a failure to log is noted in the returned record).
    /// - Parameter day: the local day it counts for (the day of `now` unless given: a missed
    ///   day is recorded once it has ended).
    public func log(_ id: String, kind: DeliveryKind, now: Instant, _ outcome: DeliveryOutcome, _ detail: String,
                    day: CivilDate? = nil) -> DeliveryRecord {
        var record = DeliveryRecord(
            time: ISO8601.format(now, in: context.zone), day: day ?? context.zone.localDateTime(of: now).date,
            reminder: id, kind: kind, outcome: outcome, detail: detail)
        do {
            try context.deliveryLog.append(record)
        } catch {
            record.detail += " (not logged: \(error))"
        }
        return record
    }

    /// The newest `limit` records, newest first, as `history` and the page list them: a
    /// reminder's newest record, when it says `waiting` and nothing waits now, says so too.
    public func history(_ limit: Int) throws(FileError) -> [DeliveryRecord] {
        var records = try context.deliveryLog.newest(limit)
        var seen = Set<String>()
        let scheduler = recordedScheduler()
        for index in records.indices where records[index].kind == .scheduled && seen.insert(records[index].reminder).inserted {
            records[index].detail += waiterGone(records[index], waiting: context.state.isWaiting(records[index].reminder), on: scheduler)
        }
        return records
    }

    /// What a reminder's newest record, `waiting`, gains once nothing waits any more: that its
    /// waiter is gone and what still sends today's, or that it ended before its day did.
    public func waiterGone(_ newest: DeliveryRecord, waiting: Bool, on scheduler: SchedulerKind?) -> String {
        guard newest.outcome == .waiting && !waiting else { return "" }
        return newest.day == context.zone.localDateTime(of: context.clock.now()).date
            ? " (its waiter is gone: " + Self.laterRun(newest.reminder, on: scheduler) + ")" : " (its waiter ended before the day did)"
    }
}
