/// `crontab -` refused the table notif gave it (`"-":2: bad minute`): which line of the user's
/// crontab it meant. crontab counts the lines it has read to their end, so a fault found inside
/// a line carries the number of the line before it (`x 5 * * * cmd` on line 3 is `"-":2`), and a
/// line too short for its fields, whose end crontab reached looking for them, its own (`0 5 * *`
/// on line 3 is `"-":3`). A line crontab accepts is never that short, so the line at the
/// reported number tells which it is.
struct CrontabRefusal: Equatable {
    /// The line at fault (from 1) in the table crontab was given.
    var line: Int
    /// crontab's own words (`bad minute`).
    var reason: String

    /// crontab's first `"-":N: REASON` message for `table`, or nil when it gave none.
    init?(stderr: String, table: [UInt8]) {
        let prefix = "\"-\":"
        guard let message = stderr.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let rest = message.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":"), let reported = Int(rest[..<colon]), reported >= 0 else { return nil }
        reason = String(rest[rest.index(after: colon)...].drop { $0 == " " })
        let lines = CrontabLines.contents(of: table)
        line = reported >= 1 && reported <= lines.count && Self.tooShort(lines[reported - 1]) ? reported : reported + 1
    }

    /// A job line with fewer fields than cron needs (five times and a command, or `@reboot` and
    /// a command); comments, blank lines and assignments are not jobs.
    static func tooShort(_ line: ArraySlice<UInt8>) -> Bool {
        let trimmed = line.drop { CronEnvironment.isBlank($0) }
        guard let first = trimmed.first, first != UInt8(ascii: "#"), CronEnvironment.assignedName(line) == nil else { return false }
        let fields = trimmed.split { CronEnvironment.isBlank($0) }.count
        return fields < (first == UInt8(ascii: "@") ? 2 : 6)
    }
}
