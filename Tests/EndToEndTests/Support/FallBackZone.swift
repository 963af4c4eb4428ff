import Foundation

/// A named zone made with `zic` whose clock falls back an hour, from daylight saving time to
/// standard time, at a whole UTC minute shortly ahead: how a test lives through "the last
/// Sunday of October" with real clocks, for a cron daemon (which notices the change because
/// `tm_isdst` flips) and for notif's own reading of /etc/localtime. Removed when released.
final class FallBackZone {
    /// The zone's name, e.g. `NotifTestLive/F1a2b3c4d`.
    let name: String
    /// The moment the clock goes back (a whole UTC minute, at least `lead` seconds from now).
    let change: Date
    /// Standard time minus UTC after the change, in minutes; before it the clock is an hour ahead.
    let standardMinutes: Int
    private let file: String

    init(fallingBackIn lead: TimeInterval, standardMinutes: Int = 60) throws {
        let now = Date().timeIntervalSince1970
        change = Date(timeIntervalSince1970: ((now + lead) / 60).rounded(.up) * 60)
        self.standardMinutes = standardMinutes
        name = "NotifTestLive/F" + UUID().uuidString.prefix(8).lowercased()
        file = "/usr/share/zoneinfo/" + name
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func until(_ date: Date) -> String {
            let c = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            return "\(c.year!) \(months[c.month! - 1]) \(c.day!) " + String(format: "%02d:%02du", c.hour!, c.minute!)
        }
        let offset = "\(standardMinutes < 0 ? "-" : "")\(abs(standardMinutes) / 60):\(String(format: "%02d", abs(standardMinutes) % 60))"
        // Daylight saving time (the SAVE column, 1:00) from a day before until the change: cron
        // looks at the offset again only when tm_isdst changes, as on a real fall-back day. It
        // starts a day before because glibc takes the first standard-time type for the times
        // before a zone's first transition: with daylight time first, glibc (and so cron) would
        // see standard time all along and no change at all.
        let rule = "Zone \(name) \(offset) - NTS \(until(change.addingTimeInterval(-86_400)))\n"
            + "\t\t\t\(offset) 1:00 NTD \(until(change))\n\t\t\t\(offset) - NTS\n"
        try ZoneFile.install(rules: rule, name: name, at: file)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: file)
        rmdir(ShiftedZone.directory)   // only when no other test's zone is left in it
    }

    /// Local time in this zone at `date`, `HH:MM`, and its day of the month and month.
    func local(_ date: Date) -> (hour: Int, minute: Int, day: Int, month: Int) {
        let offset = standardMinutes + (date < change ? 60 : 0)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.hour, .minute, .day, .month], from: date.addingTimeInterval(Double(offset * 60)))
        return (c.hour!, c.minute!, c.day!, c.month!)
    }
}
