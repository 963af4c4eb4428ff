import Foundation

/// A named zone made with `zic` whose clock changes at a whole UTC minute shortly ahead, as on a
/// daylight-saving day, so a test lives through it with real clocks: forward (a gap, `08:30` to
/// `09:30`: 09:00 is skipped) or back (`09:01` to `08:59`: 09:00 comes twice). The change flips
/// daylight saving time on or off (`tm_isdst`), as a real one does (cron looks at the offset
/// again then). glibc, systemd, cron and notif's own TZif reader all read it from
/// /usr/share/zoneinfo; it is removed when released.
final class TransitionZone {
    /// The zone's name, e.g. `NotifTestLive/T1a2b3c4d`.
    let name: String
    /// The moment the clock changes (a whole UTC minute).
    let change: Date
    /// Local time minus UTC before and after the change, in minutes.
    let minutesBefore: Int, minutesAfter: Int
    private let file: String

    /// The clock reads `from` (`hour`, `minute`) local time at `change` (a whole UTC minute),
    /// and `jump` minutes later after it (negative: back).
    init(at from: (hour: Int, minute: Int), jump: Int, change: Date) throws {
        self.change = change
        let minuteOfDay = Int(change.timeIntervalSince1970 / 60) % 1440
        var before = ((from.hour * 60 + from.minute - minuteOfDay) % 1440 + 1440) % 1440
        if before >= 720 { before -= 1440 }
        minutesBefore = before
        minutesAfter = before + jump
        name = "NotifTestLive/T" + UUID().uuidString.prefix(8).lowercased()
        file = "/usr/share/zoneinfo/" + name
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func until(_ date: Date) -> String {
            let c = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            return "\(c.year!) \(months[c.month! - 1]) \(c.day!) " + String(format: "%02d:%02du", c.hour!, c.minute!)
        }
        func hm(_ minutes: Int) -> String { "\(minutes < 0 ? "-" : "")\(abs(minutes) / 60):\(String(format: "%02d", abs(minutes) % 60))" }
        // Standard time is the smaller offset; daylight time adds the jump. Back: daylight time
        // from a day before (glibc takes the first standard-time type for the times before a
        // zone's first transition, so a zone starting in daylight time would show no change).
        let standard = min(minutesBefore, minutesAfter), save = hm(abs(jump))
        let rule = jump > 0
            ? "Zone \(name) \(hm(standard)) - NTS \(until(change))\n\t\t\t\(hm(standard)) \(save) NTD\n"
            : "Zone \(name) \(hm(standard)) - NTS \(until(change.addingTimeInterval(-86_400)))\n"
                + "\t\t\t\(hm(standard)) \(save) NTD \(until(change))\n\t\t\t\(hm(standard)) - NTS\n"
        try ZoneFile.install(rules: rule, name: name, at: file)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: file)
        rmdir(ShiftedZone.directory)   // only when no other test's zone is left in it
    }

    /// Local minus UTC at `date`, in minutes.
    func offset(at date: Date) -> Int { date < change ? minutesBefore : minutesAfter }

    /// The moment local time reads `hour:minute` before the change (`before: true`) or after it.
    func moment(_ hour: Int, _ minute: Int, before: Bool) -> Date {
        let offset = before ? minutesBefore : minutesAfter
        let local = Int(change.timeIntervalSince1970 / 60) + offset
        let day = local - local % 1440
        var result = day + hour * 60 + minute - offset
        // The nearest such moment to the change.
        if result - Int(change.timeIntervalSince1970 / 60) > 720 { result -= 1440 }
        if Int(change.timeIntervalSince1970 / 60) - result > 720 { result += 1440 }
        return Date(timeIntervalSince1970: TimeInterval(result * 60))
    }

    /// `date` as notif writes it in this zone, to the minute (`2026-12-01T09:30`).
    func isoMinute(_ date: Date) -> String {
        let local = Date(timeIntervalSince1970: date.timeIntervalSince1970 + Double(offset(at: date) * 60))
        let text = ISO8601DateFormatter.string(from: local, timeZone: TimeZone(identifier: "UTC")!,
                                               formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate])
        return String(text.prefix(16))
    }

    /// Local time at `date`: hour, minute, day of the month, month.
    func local(_ date: Date) -> (hour: Int, minute: Int, day: Int, month: Int) {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.hour, .minute, .day, .month], from: date.addingTimeInterval(Double(offset(at: date) * 60)))
        return (c.hour!, c.minute!, c.day!, c.month!)
    }
}
