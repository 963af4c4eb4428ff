import SharedLogic
import Storage

/// deliveries.jsonl: one record appended per delivery attempt.
extension ReminderService {
    /// Appends a record to deliveries.jsonl (a failure to log is noted in the returned record).
    public func log(_ id: String, kind: DeliveryKind, now: Instant, _ outcome: DeliveryOutcome, _ detail: String) -> DeliveryRecord {
        var record = DeliveryRecord(
            time: ISO8601.format(now, in: context.zone), day: context.zone.localDateTime(of: now).date,
            reminder: id, kind: kind, outcome: outcome, detail: detail)
        do {
            try context.deliveryLog.append(record)
        } catch {
            record.detail += " (not logged: \(error))"
        }
        return record
    }
}
