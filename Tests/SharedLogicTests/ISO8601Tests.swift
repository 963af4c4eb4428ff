import Testing
import TestSupport
@testable import SharedLogic

@Suite struct ISO8601Tests {
    @Test(arguments: [
        ("America/New_York", "2026-12-01T14:00:00Z", "2026-12-01T09:00:00-05:00"),
        ("America/New_York", "2026-07-01T13:00:00Z", "2026-07-01T09:00:00-04:00"),
        ("Asia/Kolkata", "2026-12-01T03:30:00Z", "2026-12-01T09:00:00+05:30"),
        ("America/St_Johns", "2026-12-01T12:30:00Z", "2026-12-01T09:00:00-03:30"),
        ("Pacific/Chatham", "2026-11-30T19:15:00Z", "2026-12-01T09:00:00+13:45"),
        ("Asia/Kathmandu", "1999-12-31T18:14:59Z", "1999-12-31T23:59:59+05:45"),
        ("Europe/Berlin", "2026-12-31T23:00:00Z", "2027-01-01T00:00:00+01:00"),
    ])
    func formatsInZone(zoneName: String, utc: String, expected: String) throws {
        let zone = try TestSupport.zone(zoneName)
        let instant = TestSupport.utc(utc)
        #expect(ISO8601.format(instant, in: zone) == expected)
        #expect(ISO8601.parse(expected) == instant)
    }

    @Test func utcUsesPlusZero() {
        #expect(ISO8601.format(TestSupport.utc("2026-12-01T09:00:00Z"), in: .utc) == "2026-12-01T09:00:00+00:00")
        #expect(ISO8601.format(Instant(seconds: 0), in: .utc) == "1970-01-01T00:00:00+00:00")
        #expect(ISO8601.format(Instant(seconds: -1), in: .utc) == "1969-12-31T23:59:59+00:00")
    }

    /// New York's local mean time was −4:56:02; the text uses −04:56 and a matching clock reading.
    @Test func offsetsWithSecondsRoundToMinutes() throws {
        let zone = try TestSupport.zone("America/New_York")
        let instant = TestSupport.utc("1880-01-01T12:00:00Z")
        #expect(zone.offset(at: instant) == -(4 * 3600 + 56 * 60 + 2))
        #expect(ISO8601.format(instant, in: zone) == "1880-01-01T07:04:00-04:56")
        #expect(ISO8601.parse(ISO8601.format(instant, in: zone)) == instant)
        let thirty = try #require(ZoneRules(posix: "<+0030>-0:00:30"))
        #expect(ISO8601.format(Instant(seconds: 0), in: thirty) == "1970-01-01T00:01:00+00:01")
        let minusThirty = try #require(ZoneRules(posix: "<-0030>0:00:30"))
        #expect(ISO8601.format(Instant(seconds: 0), in: minusThirty) == "1969-12-31T23:59:00-00:01")
        let twentyNine = try #require(ZoneRules(posix: "<+0029>-0:00:29"))
        #expect(ISO8601.format(Instant(seconds: 0), in: twentyNine) == "1970-01-01T00:00:00+00:00")
    }

    @Test func roundTripsAcrossZones() throws {
        var generator = SeededRandom(seed: 5)
        for name in ["America/New_York", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "Europe/Berlin"] {
            let zone = try TestSupport.zone(name)
            for _ in 0..<1_000 {
                let instant = Instant(seconds: Int64.random(in: -5_000_000_000...10_000_000_000, using: &generator))
                let text = ISO8601.format(instant, in: zone)
                #expect(ISO8601.parse(text) == instant, "\(name) \(text)")
            }
        }
    }

    @Test(arguments: [
        ("2026-12-01T09:00:00Z", "2026-12-01T09:00:00Z"),
        ("2026-12-01T09:00:00+00:00", "2026-12-01T09:00:00Z"),
        ("2026-12-01T09:00:00-00:00", "2026-12-01T09:00:00Z"),
        ("2026-12-01T09:00:00-05:00", "2026-12-01T14:00:00Z"),
        ("2026-12-01T09:00:00+05:30", "2026-12-01T03:30:00Z"),
        ("2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00Z"),
        ("2024-02-29T23:59:59-23:59", "2024-03-01T23:58:59Z"),
    ])
    func parses(text: String, utc: String) {
        #expect(ISO8601.parse(text) == TestSupport.utc(utc))
    }

    @Test(arguments: [
        "", "2026-12-01", "2026-12-01T09:00:00", "2026-12-01T09:00Z", "2026-12-01 09:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T09:60:00Z", "2026-12-01T09:00:60Z", "2026-02-30T09:00:00Z",
        "2026-12-01T09:00:00+5:30", "2026-12-01T09:00:00+0530", "2026-12-01T09:00:00+05:30 ",
        "2026-12-01T09:00:00z", "2026-12-01t09:00:00Z", "2026-12-01T09:00:00+24:00", "2026-12-01T09:00:00+05:60",
        "2026-12-01T09:00:00ZZ", "2026-12-01T9:00:00Z", "2026-12-01T09:00:00.5Z", "T09:00:00Z",
    ])
    func rejects(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }
}
