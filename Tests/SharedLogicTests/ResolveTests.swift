import Testing
import TestSupport
@testable import SharedLogic

@Suite struct ResolveTests {
    /// A zone whose changes happen exactly at 09:00: spring forward 09:00 → 10:00, fall back 10:00 → 09:00.
    @Test func transitionExactlyAtNine() throws {
        let zone = try #require(ZoneRules(posix: "XST-1XDT,M3.5.0/9,M10.5.0/10"))
        // 2026-03-29: 09:00 XST (08:00Z) becomes 10:00 XDT; 09:00 itself is skipped.
        let springChange = TestSupport.utc("2026-03-29T08:00:00Z")
        #expect(zone.offset(at: springChange.adding(seconds: -1)) == 3600)
        #expect(zone.offset(at: springChange) == 7200)
        #expect(zone.resolve(TestSupport.local(2026, 3, 29, 9, 0)) == springChange)
        #expect(zone.resolve(TestSupport.local(2026, 3, 29, 9, 59, 59)) == springChange)
        #expect(zone.resolve(TestSupport.local(2026, 3, 29, 8, 59, 59)) == springChange.adding(seconds: -1))
        #expect(zone.localDateTime(of: springChange) == TestSupport.local(2026, 3, 29, 10, 0))
        // 2026-10-25: 10:00 XDT (08:00Z) becomes 09:00 XST; 09:00 happens at 07:00Z and again at 08:00Z.
        let autumnChange = TestSupport.utc("2026-10-25T08:00:00Z")
        #expect(zone.localDateTime(of: autumnChange) == TestSupport.local(2026, 10, 25, 9, 0))
        let nine = zone.resolve(TestSupport.local(2026, 10, 25, 9, 0))
        #expect(nine == TestSupport.utc("2026-10-25T07:00:00Z"))
        #expect(zone.abbreviation(at: nine) == "XDT")
        #expect(zone.resolve(TestSupport.local(2026, 10, 25, 10, 0)) == TestSupport.utc("2026-10-25T09:00:00Z"))
    }

    /// The same with the change at 09:00 going the other way round (southern hemisphere ordering).
    @Test func transitionAtNineSouthern() throws {
        let zone = try #require(ZoneRules(posix: "XST-10XDT,M10.1.0/9,M4.1.0/10"))
        let spring = TestSupport.utc("2026-10-03T23:00:00Z")   // 2026-10-04 09:00 at +10
        #expect(zone.resolve(TestSupport.local(2026, 10, 4, 9, 30)) == spring)
        let overlapNine = zone.resolve(TestSupport.local(2026, 4, 5, 9, 0))
        #expect(overlapNine == TestSupport.utc("2026-04-04T22:00:00Z"))   // 09:00 at +11
    }

    /// Checks `resolve` against its definition: the earliest instant whose wall-clock reading is at or
    /// past the requested one — an exact reading when one exists, the end of the gap otherwise.
    private func checkDefinition(_ zone: ZoneRules, _ local: LocalDateTime) -> Bool {
        let wall = local.secondsSinceEpoch
        let result = zone.resolve(local).seconds
        func reading(_ t: Int64) -> Int64 { t + Int64(zone.offset(at: Instant(seconds: t))) }
        guard reading(result) >= wall else { return false }
        if reading(result) > wall && reading(result - 1) >= wall { return false }
        // Any exact match t satisfies t = wall - offset(t), so only these candidates could be earlier.
        let offsets = Set((zone.types + (zone.footer?.types ?? [])).map(\.offset))
        for offset in offsets {
            let t = wall - Int64(offset)
            if t < result && zone.offset(at: Instant(seconds: t)) == offset { return false }
        }
        return true
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata",
                      "America/St_Johns", "Pacific/Chatham", "Australia/Lord_Howe", "Pacific/Apia",
                      "Asia/Kathmandu", "Europe/Moscow", "America/Sao_Paulo"])
    func matchesDefinitionEverywhere(zoneName: String) throws {
        let zone = try TestSupport.zone(zoneName)
        var generator = SeededRandom(seed: UInt64(zoneName.utf8.count))
        var locals: [LocalDateTime] = []
        // Wall-clock times right around every transition from 1900 to 2040 ...
        for time in zone.transitionTimes where time > -2_208_988_800 && time < 2_208_988_800 {
            for delta: Int64 in [-7200, -3601, -3600, -1800, -1, 0, 1, 1799, 1800, 3599, 3600, 7200] {
                let before = zone.offset(at: Instant(seconds: time - 1))
                locals.append(LocalDateTime(secondsSinceEpoch: time + Int64(before) + delta))
            }
        }
        // ... and at random moments up to 2200 (footer territory).
        for _ in 0..<3_000 {
            locals.append(LocalDateTime(secondsSinceEpoch: Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)))
        }
        let failures = locals.filter { !checkDefinition(zone, $0) }
        #expect(failures.count == 0, "\(zoneName): \(failures.prefix(3))")
        #expect(locals.count > 3_000)
    }

    @Test func exactTimesRoundTrip() throws {
        let zone = try TestSupport.zone("Pacific/Chatham")
        var generator = SeededRandom(seed: 99)
        for _ in 0..<2_000 {
            let instant = Instant(seconds: Int64.random(in: 0...4_000_000_000, using: &generator))
            let local = zone.localDateTime(of: instant)
            let back = zone.resolve(local)
            // Either the same instant, or the earlier twin of a repeated wall-clock time.
            #expect(back == instant || (back < instant && zone.localDateTime(of: back) == local))
        }
    }

    @Test func fixedZonesResolveDirectly() throws {
        #expect(ZoneRules.utc.resolve(TestSupport.local(2026, 12, 1, 9, 0)) == TestSupport.utc("2026-12-01T09:00:00Z"))
        let kolkata = try TestSupport.zone("Asia/Kolkata")
        #expect(kolkata.resolve(TestSupport.local(2026, 12, 1, 9, 0)) == TestSupport.utc("2026-12-01T03:30:00Z"))
        let kathmandu = try TestSupport.zone("Asia/Kathmandu")
        #expect(kathmandu.resolve(TestSupport.local(2026, 12, 1, 9, 0)) == TestSupport.utc("2026-12-01T03:15:00Z"))
    }

    /// Samoa skipped 2011-12-30 entirely (−10 → +14): any time that day resolves to the start of the 31st.
    @Test func skippedDay() throws {
        let apia = try TestSupport.zone("Pacific/Apia")
        let skip = TestSupport.utc("2011-12-30T10:00:00Z")
        #expect(apia.localDateTime(of: skip) == TestSupport.local(2011, 12, 31, 0, 0))
        #expect(apia.localDateTime(of: skip.adding(seconds: -1)) == TestSupport.local(2011, 12, 29, 23, 59, 59))
        #expect(apia.resolve(TestSupport.local(2011, 12, 30, 9, 0)) == skip)
        #expect(apia.resolve(TestSupport.local(2011, 12, 30, 23, 59, 59)) == skip)
    }
}
