extension EntryFiring {
    /// `status --json`'s `firingSchedule` value for one entry: the typed facts, beside the
    /// `firing` words. Times are `HH:MM`; a zone of null is the scheduler's own (the system zone
    /// for cron, the user manager's for systemd, the daemon's for built-in entries).
    public var json: JSONValue {
        var members = [JSONMember("scheduler", .string(scheduler.rawValue))]
        switch schedule {
        case .cron(let times, let systemZone, let matchesWanted, let hourlyOnFallBack):
            members += [
                JSONMember("times", .array(times.map { .string($0.description) })),
                JSONMember("zone", .string(systemZone)),
                JSONMember("matchesWanted", wanted == nil ? .null : .bool(matchesWanted)),
                JSONMember("hourlyOnFallBack", .bool(hourlyOnFallBack)),
            ]
        case .systemd(let calendars, let managerZone):
            members += [
                JSONMember("calendars", .array(calendars.map { calendar in
                    .object([JSONMember("calendar", .string(calendar.calendar)), JSONMember("zone", calendar.zone.map { .string($0) } ?? .null)])
                })),
                JSONMember("managerZone", .string(managerZone)),
            ]
        case .embedded(let time, let weekday, let zone):
            members += [
                JSONMember("time", .string(time.description)),
                JSONMember("weekday", weekday.map { .string($0.name) } ?? .null),
                JSONMember("zone", zone.map { .string($0) } ?? .null),
            ]
        }
        members.append(JSONMember("wanted", wanted.map { .object([JSONMember("time", .string($0.time.description)), JSONMember("zone", .string($0.zone))]) } ?? .null))
        members.append(JSONMember("earlierNotif", .bool(earlierNotif)))
        return .object(members)
    }
}
