import Testing
@testable import SharedLogic

/// The next 09:00 with a fixed "now" and a fixed zone: floating local time, so
/// DST changes move the UTC instant, never the wall-clock 09:00. Expected instants are written
/// out in UTC by hand.
@Suite struct ReminderClockTests {
    static let nine = DailyTime(hour: 9, minute: 0)

    @Test(arguments: [
        // zone, now (UTC), next 09:00 (UTC)
        ("America/New_York", "2026-03-07T13:59:59Z", "2026-03-07T14:00:00Z"),  // EST, a second before
        ("America/New_York", "2026-03-07T14:00:00Z", "2026-03-08T13:00:00Z"),  // exactly 09:00: the next day's, now EDT
        ("America/New_York", "2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z"),  // fall back: EDT day to EST 09:00
        ("Europe/Berlin", "2026-03-28T08:00:01Z", "2026-03-29T07:00:00Z"),     // spring forward: CET to CEST
        ("Europe/Berlin", "2026-10-24T07:00:00Z", "2026-10-25T08:00:00Z"),     // fall back: CEST to CET
        ("Asia/Kolkata", "2026-11-29T03:29:59Z", "2026-11-29T03:30:00Z"),      // +05:30, no DST
        ("UTC", "2026-12-31T09:00:00Z", "2027-01-01T09:00:00Z"),               // year end
    ])
    func nextFireIsTheNextLocalNine(zoneName: String, now: String, expected: String) throws {
        let zone = try TestSupport.zone(zoneName)
        let next = ReminderClock.nextFire(of: Self.nine, after: TestSupport.utc(now), in: zone)
        #expect(next == TestSupport.utc(expected))
        let local = zone.localDateTime(of: next)
        #expect(local.hour == 9 && local.minute == 0 && local.second == 0)
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"])
    func fourHundredDaysInARowEachFireOnceAtNine(zoneName: String) throws {
        let zone = try TestSupport.zone(zoneName)
        var now = TestSupport.utc("2026-01-01T00:00:00Z")
        var previousDay: CivilDate?
        for _ in 0..<400 {
            let next = ReminderClock.nextFire(of: Self.nine, after: now, in: zone)
            let local = zone.localDateTime(of: next)
            #expect(local.hour == 9 && local.minute == 0, "\(zoneName): \(local)")
            if let previousDay { #expect(local.date == previousDay.adding(days: 1), "\(zoneName): skipped or repeated a day at \(local)") }
            previousDay = local.date
            now = next
        }
    }

    @Test func aZoneChangeFollowsTheNewZone() throws {
        let now = TestSupport.utc("2026-06-01T00:00:00Z")
        let berlin = ReminderClock.nextFire(of: Self.nine, after: now, in: try TestSupport.zone("Europe/Berlin"))
        let newYork = ReminderClock.nextFire(of: Self.nine, after: now, in: try TestSupport.zone("America/New_York"))
        #expect(berlin == TestSupport.utc("2026-06-01T07:00:00Z"))
        #expect(newYork == TestSupport.utc("2026-06-01T13:00:00Z"))
    }

    @Test func aTimeInsideASpringForwardGapFiresWhenTheGapEnds() throws {
        // 02:30 does not exist in New York on 2026-03-08 (02:00 EST jumps to 03:00 EDT).
        let zone = try TestSupport.zone("America/New_York")
        let next = ReminderClock.nextFire(of: DailyTime(hour: 2, minute: 30), after: TestSupport.utc("2026-03-08T05:00:00Z"), in: zone)
        #expect(next == TestSupport.utc("2026-03-08T07:00:00Z"))
        #expect(zone.localDateTime(of: next).hour == 3)
    }
}
