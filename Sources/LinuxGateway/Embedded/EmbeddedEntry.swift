import SharedLogic

/// One reminder in the built-in schedule: which reminder and its daily time, as a small text file.
public struct EmbeddedEntry: Hashable, Sendable {
    public var id: String
    public var time: DailyTime

    public init(id: String, time: DailyTime) {
        self.id = id
        self.time = time
    }

    static let header = "# notif built-in schedule: `notif daemon` shows this reminder daily; `notif apply` rewrites this file"

    public var text: String { "\(Self.header)\nreminder=\(id)\ntime=\(time)\n" }

    /// Reads an entry file; nil when it is not one (a foreign or torn file is ignored, not fatal).
    public init?(parsing text: String) {
        var id: String?
        var time: DailyTime?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("reminder=") {
                id = String(line.dropFirst("reminder=".count))
            } else if line.hasPrefix("time=") {
                let parts = line.dropFirst("time=".count).split(separator: ":")
                if parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
                   (0..<24).contains(hour), (0..<60).contains(minute) {
                    time = DailyTime(hour: hour, minute: minute)
                }
            }
        }
        guard let id, Self.isValidID(id), let time else { return nil }
        self.init(id: id, time: time)
    }

    /// Ids become file names: letters, digits, `-`, `_` and `.`, not starting with a dot.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".") && id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
    }
}
