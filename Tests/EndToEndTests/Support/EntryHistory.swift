import Foundation

/// A crontab line that sets a variable (`SHELL=/bin/sh`, as notif's block does) rather than
/// running a command.
enum CronLine {
    static func isSetting(_ line: Substring) -> Bool {
        guard let equals = line.firstIndex(of: "="), let first = line.first, first == "_" || first.isLetter else { return false }
        return line[..<equals].allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }
}

/// When a reminder's entry began, as `apply` records it in entry-since.json: a test that turns a
/// reminder on a few minutes after 09:00 and wants that day's reminder writes the record as if
/// the entry had been made the day before (turned on after 09:00, the first reminder is the next
/// day's, by notif's rule).
enum EntryHistory {
    /// The record's text with every reminder key of `keys` dated a day ago.
    static func yesterday(_ keys: [String]) -> String {
        let when = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
        return "{" + keys.map { "\"\($0)\": \"\(when)\"" }.joined(separator: ", ") + "}\n"
    }

    /// The keys entry-since.json holds now (`tips-and-updates.TAG`), read from `text`.
    static func keys(in text: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [] }
        return object.keys.sorted()
    }
}

extension Sandbox {
    /// Dates every entry `apply` recorded in this sandbox's state a day back.
    func entriesFromYesterday() throws {
        let path = stateDir + "/entry-since.json"
        let keys = EntryHistory.keys(in: read(path) ?? "")
        try Data(EntryHistory.yesterday(keys).utf8).write(to: URL(fileURLWithPath: path))
    }
}

extension TestUser {
    /// Dates every entry `apply` recorded for this user a day back, written as the user.
    func entriesFromYesterday() throws {
        let path = stateDir + "/entry-since.json"
        let keys = EntryHistory.keys(in: read(path) ?? "")
        _ = try run(["/bin/sh", "-c", "printf '%s' \"$0\" > \"$1\"", EntryHistory.yesterday(keys), path])
    }
}

extension TestUser {
    /// The reminder on and allowed, its entry (the built-in scheduler's) from yesterday, and today's
    /// reminder not sent: what a waiter `deliver` starts finds, for tests that start one by hand
    /// (`env` must hold a `TZ` where 09:00 has passed).
    func reminderDueToday(_ binary: String, _ env: [String: String]) throws {
        try run([binary, "permission", "grant"], env).expectSuccess()
        try run([binary, "--scheduler", "embedded", "set", "tips-and-updates", "on"], env).expectSuccess()
        try entriesFromYesterday()
        try notSentToday()
    }

    /// Forgets that today's reminder was sent (a second waiter by hand shows it again).
    func notSentToday() throws {
        _ = try run(["rm", "-f", stateDir + "/delivered.json"])
    }
}

extension Sandbox {
    /// Forgets that today's reminder was sent (a second waiter by hand shows it again).
    func notSentToday() {
        unlink(stateDir + "/delivered.json")
    }
}
