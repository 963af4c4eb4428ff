import Foundation
@testable import SharedLogic

/// Helpers shared by the time tests; expectations are computed with Foundation, independently of SharedLogic.
enum TestSupport {
    static let zoneInfo = "/usr/share/zoneinfo"

    struct MissingZone: Error { let name: String }

    /// The system's TZif file for `name`, parsed.
    static func zone(_ name: String) throws -> ZoneRules {
        guard let data = FileManager.default.contents(atPath: zoneInfo + "/" + name) else {
            throw MissingZone(name: name)
        }
        return try ZoneRules(tzif: [UInt8](data), name: name)
    }

    /// Raw bytes of the system's TZif file for `name`.
    static func zoneBytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: zoneInfo + "/" + name) else {
            throw MissingZone(name: name)
        }
        return [UInt8](data)
    }

    /// `2026-03-08T07:00:00Z` → instant, via Foundation's own parser.
    static func utc(_ text: String) -> Instant {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { fatalError("bad test timestamp \(text)") }
        return Instant(seconds: Int64(date.timeIntervalSince1970))
    }

    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> LocalDateTime {
        LocalDateTime(date: CivilDate(year: year, month: month, day: day), hour: hour, minute: minute, second: second)
    }
}
