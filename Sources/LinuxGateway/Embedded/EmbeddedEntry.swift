import SharedLogic

/// One reminder in the built-in schedule: which reminder, its daily time, and when the user set
/// `TZ` the zone that time is in (the daemon may start without that `TZ`), as a small text file.
/// (When it began is recorded for every scheduler alike: `EntrySince`. A `since=` line an
/// earlier notif wrote is ignored, and goes at the next apply.)
public struct EmbeddedEntry: Hashable, Sendable {
    public var id: String
    public var time: DailyTime
    /// `TZ` as it was when the entry was written; nil: the system zone.
    public var zone: String?
    /// The one day a week it comes, for a weekly reminder; nil: daily.
    public var weekday: Weekday?

    public init(id: String, time: DailyTime, zone: String? = nil, weekday: Weekday? = nil) {
        self.id = id
        self.time = time
        self.zone = zone
        self.weekday = weekday
    }

    /// `daily` or `weekly` on its day.
    public var recurrence: Recurrence { weekday.map(Recurrence.weekly) ?? .daily }

    static let header = "# notif built-in schedule: `notif daemon` shows this reminder daily; `notif apply` rewrites this file"

    public var text: String {
        "\(Self.header)\nreminder=\(id)\ntime=\(time)\n" + (weekday.map { "day=\($0.short)\n" } ?? "") + (zone.map { "zone=\($0)\n" } ?? "")
    }

    /// Reads an entry file; nil when it is not one (a foreign or torn file is ignored, not fatal).
    public init?(parsing text: String) {
        var id: String?
        var time: DailyTime?
        var zone: String?
        var weekday: Weekday?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("day=") {
                let name = line.dropFirst("day=".count)
                guard let day = Weekday.allCases.first(where: { $0.short == name }) else { return nil }
                weekday = day
            } else if line.hasPrefix("reminder=") {
                id = String(line.dropFirst("reminder=".count))
            } else if line.hasPrefix("zone=") {
                zone = String(line.dropFirst("zone=".count))
            } else if line.hasPrefix("time=") {
                let parts = line.dropFirst("time=".count).split(separator: ":")
                if parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
                   (0..<24).contains(hour), (0..<60).contains(minute) {
                    time = DailyTime(hour: hour, minute: minute)
                }
            }
        }
        guard let id, Self.isValidID(id), let time else { return nil }
        self.init(id: id, time: time, zone: zone, weekday: weekday)
    }

    /// Ids become file names: letters, digits, `-`, `_` and `.`, not starting with a dot.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
    }

    /// The file name of reminder `id`'s entry for configuration `tag` (`tips-and-updates.1a2b3c4d`),
    /// or the untagged one of earlier versions (`tag` nil).
    public static func fileName(_ id: String, tag: String?) -> String { id + (tag.map { "." + $0 } ?? "") }

    /// The reminder id and configuration tag in an entry file name.
    public static func parse(fileName name: String) -> (id: String, tag: String?) {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, ShortHash.isHash(name[name.index(after: dot)...]) {
            return (String(name[..<dot]), String(name[name.index(after: dot)...]))
        }
        return (name, nil)
    }
}
