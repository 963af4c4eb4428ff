/// Why a delivery was attempted.
public enum DeliveryKind: String, Sendable, CaseIterable {
    /// The day's reminder: a run of its entry (whichever scheduler woke notif), or its waiter.
    case scheduled
    /// Written by notif 0.1.0 for a late run (`deliver --catch-up`); read in old logs, no longer written.
    case catchUp = "catch-up"
    /// `notif test`: never counts as the day's delivery.
    case test
    /// Account projects: a new item of the server's history shown by `notif daemon`.
    case push
    /// A button of the reminder's notification was pressed ("Turn off", "Settings"), or the wait
    /// for one ended because none can come (the notification service or the bus went away).
    case button
}

/// What came of a delivery attempt.
public enum DeliveryOutcome: String, Sendable, CaseIterable {
    case delivered, skipped, failed
    /// The reminder was turned off from its notification's "Turn off" button.
    case turnedOff = "turned-off"
    /// Due, but no notification service could be reached: a waiter shows it when one comes.
    case waiting
    /// The day ended before a notification service came.
    case missed
}

/// One line of deliveries.jsonl.
public struct DeliveryRecord: Equatable, Sendable {
    /// ISO 8601 with the local offset at the time (`2026-12-01T09:00:02+01:00`).
    public var time: String
    /// The local day the attempt counted for.
    public var day: CivilDate
    public var reminder: String
    public var kind: DeliveryKind
    public var outcome: DeliveryOutcome
    /// Why it was skipped or failed, or what showed it.
    public var detail: String

    public init(time: String, day: CivilDate, reminder: String, kind: DeliveryKind, outcome: DeliveryOutcome, detail: String) {
        self.time = time
        self.day = day
        self.reminder = reminder
        self.kind = kind
        self.outcome = outcome
        self.detail = detail
    }

    public var json: JSONValue {
        .object([
            JSONMember("time", .string(time)),
            JSONMember("day", .string(day.description)),
            JSONMember("reminder", .string(reminder)),
            JSONMember("kind", .string(kind.rawValue)),
            JSONMember("outcome", .string(outcome.rawValue)),
            JSONMember("detail", .string(detail)),
        ])
    }

    /// Reads one log line; nil for lines that are not records (a torn or foreign line is skipped, not fatal).
    public init?(json: JSONValue) {
        guard let time = json["time"]?.stringValue,
              let day = json["day"]?.stringValue.flatMap(CivilDate.init),
              let reminder = json["reminder"]?.stringValue,
              let kind = json["kind"]?.stringValue.flatMap(DeliveryKind.init(rawValue:)),
              let outcome = json["outcome"]?.stringValue.flatMap(DeliveryOutcome.init(rawValue:))
        else { return nil }
        self.init(time: time, day: day, reminder: reminder, kind: kind, outcome: outcome,
                  detail: json["detail"]?.stringValue ?? "")
    }
}
