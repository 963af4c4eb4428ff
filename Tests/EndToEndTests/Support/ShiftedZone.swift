import Foundation

/// A named time zone made for one test with `zic`, at a whole-minute offset from UTC chosen so
/// that its local 09:00 is a chosen moment: soon (a scheduler then fires within a minute, with
/// real clocks), or a while ago, or later today. glibc, systemd (`TZ=`, `OnCalendar=… ZONE`),
/// cron and notif's own TZif reader all read it from /usr/share/zoneinfo; it is removed when
/// released. libfaketime cannot move a live systemd manager's timers, and real clocks test what
/// users run: this is how those reach 09:00.
final class ShiftedZone {
    /// The zone's name, e.g. `NotifTestLive/Z1a2b3c4d`.
    let name: String
    /// The moment it is 09:00 local in this zone (a whole UTC minute).
    let nine: Date
    /// Local time minus UTC, in minutes.
    let offsetMinutes: Int
    private let file: String

    static let directory = "/usr/share/zoneinfo/NotifTestLive"

    /// 09:00 local falls on the first whole minute at least `lead` seconds from now (between
    /// `lead` and `lead` + 60 s away); a negative `lead` puts 09:00 that far in the past.
    convenience init(nineOClockIn lead: TimeInterval) throws {
        let nineUTC = (Date().timeIntervalSince1970 + lead) / 60
        try self.init(nineAt: Date(timeIntervalSince1970: nineUTC.rounded(.up) * 60))
    }

    /// 09:00 local falls on `nine` (a whole UTC minute). The offset is `least` minutes or more
    /// and less than a day above it: -12:00 ..< +12:00 by default, like real zones; a swap's
    /// second zone passes the first's offset, so the swap stays on one local day.
    init(nineAt nine: Date, offsetAtLeast least: Int = -720) throws {
        let minuteOfDay = Int(nine.timeIntervalSince1970 / 60) % 1440
        let offset = least + ((540 - minuteOfDay - least) % 1440 + 1440) % 1440
        self.nine = nine
        offsetMinutes = offset
        name = "NotifTestLive/Z" + UUID().uuidString.prefix(8).lowercased()
        file = "/usr/share/zoneinfo/" + name
        let sign = offset < 0 ? "-" : ""
        let rule = "Zone \(name) \(sign)\(abs(offset) / 60):\(String(format: "%02d", abs(offset) % 60)) - NTF\n"
        try ZoneFile.install(rules: rule, name: name, at: file)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: file)
        rmdir(Self.directory)   // only when no other test's zone is left in it
    }

    /// Seconds from now until 09:00 local (negative once it has passed).
    var secondsUntilNine: TimeInterval { nine.timeIntervalSinceNow }

    /// 12:00 local, `days` days before today's 09:00 (a time the machine was still on).
    func noon(daysBefore days: Int) -> Date {
        nine.addingTimeInterval(-Double(days) * 86_400 + 3 * 3_600)
    }

    /// `date` as notif writes it in this zone (`2026-11-30T09:00:00-07:36`).
    func iso(_ date: Date) -> String {
        let local = Date(timeIntervalSince1970: (date.timeIntervalSince1970 + Double(offsetMinutes * 60)).rounded(.down))
        let text = ISO8601DateFormatter.string(from: local, timeZone: TimeZone(identifier: "UTC")!,
                                               formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate])
        return text + (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
    }

    /// The local calendar date of `date` in this zone, `YYYY-MM-DD`.
    func day(of date: Date) -> String {
        let local = Date(timeIntervalSince1970: date.timeIntervalSince1970 + Double(offsetMinutes * 60))
        return ISO8601DateFormatter.string(from: local, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    }
}
