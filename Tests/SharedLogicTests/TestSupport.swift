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

/// Deterministic pseudo-random numbers (SplitMix64) so failures are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
