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
}
