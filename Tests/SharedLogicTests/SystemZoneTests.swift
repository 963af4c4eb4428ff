import Testing
@testable import SharedLogic

/// America/New_York and Europe/Berlin from the system's tzdata, around the 2026 and 2027 changes.
@Suite struct SystemZoneTests {
    typealias Change = (instant: String, before: Int, after: Int, beforeAbbreviation: String, afterAbbreviation: String)

    static let newYorkChanges: [Change] = [
        ("2026-03-08T07:00:00Z", -5 * 3600, -4 * 3600, "EST", "EDT"),
        ("2026-11-01T06:00:00Z", -4 * 3600, -5 * 3600, "EDT", "EST"),
        ("2027-03-14T07:00:00Z", -5 * 3600, -4 * 3600, "EST", "EDT"),
        ("2027-11-07T06:00:00Z", -4 * 3600, -5 * 3600, "EDT", "EST"),
    ]
    static let berlinChanges: [Change] = [
        ("2026-03-29T01:00:00Z", 3600, 7200, "CET", "CEST"),
        ("2026-10-25T01:00:00Z", 7200, 3600, "CEST", "CET"),
        ("2027-03-28T01:00:00Z", 3600, 7200, "CET", "CEST"),
        ("2027-10-31T01:00:00Z", 7200, 3600, "CEST", "CET"),
    ]

    @Test(arguments: [("America/New_York", newYorkChanges), ("Europe/Berlin", berlinChanges)])
    func offsetsAndAbbreviationsAroundChanges(zoneName: String, changes: [Change]) throws {
        let zone = try TestSupport.zone(zoneName)
        for change in changes {
            let instant = TestSupport.utc(change.instant)
            let before = instant.adding(seconds: -1)
            #expect(zone.offset(at: before) == change.before, "\(zoneName) \(change.instant)")
            #expect(zone.offset(at: instant) == change.after, "\(zoneName) \(change.instant)")
            #expect(zone.abbreviation(at: before) == change.beforeAbbreviation)
            #expect(zone.abbreviation(at: instant) == change.afterAbbreviation)
            #expect(zone.isDaylightTime(at: before) == (change.before > change.after))
            #expect(zone.isDaylightTime(at: instant) == (change.after > change.before))
        }
    }

    @Test(arguments: [("America/New_York", newYorkChanges), ("Europe/Berlin", berlinChanges)])
    func nineOClockOnChangeDays(zoneName: String, changes: [Change]) throws {
        let zone = try TestSupport.zone(zoneName)
        for change in changes {
            // The change happens in the small hours, so 09:00 that day already has the new offset.
            let date = zone.localDateTime(of: TestSupport.utc(change.instant)).date
            let nine = LocalDateTime(date: date, hour: 9, minute: 0)
            let expected = Instant(seconds: date.daysSinceEpoch * 86_400 + 9 * 3600 - Int64(change.after))
            #expect(zone.resolve(nine) == expected, "\(zoneName) \(date)")
            #expect(zone.localDateTime(of: expected) == nine)
        }
    }

    /// Every day from 2026-03-01 for 400 days: 09:00 resolves to an instant that reads 09:00, with the
    /// offset the published rules give for that date.
    @Test(arguments: [
        ("America/New_York", -5 * 3600, [("2026-03-08", "2026-11-01"), ("2027-03-14", "2027-11-07")]),
        ("Europe/Berlin", 3600, [("2026-03-29", "2026-10-25"), ("2027-03-28", "2027-10-31")]),
    ])
    func nineOClockEveryDay(zoneName: String, standardOffset: Int, summers: [(String, String)]) throws {
        let zone = try TestSupport.zone(zoneName)
        let summerRanges = summers.map { CivilDate($0.0)!..<CivilDate($0.1)! }
        var date = CivilDate(year: 2026, month: 3, day: 1)
        var checked = 0
        for _ in 0..<400 {
            let nine = LocalDateTime(date: date, hour: 9, minute: 0)
            let instant = zone.resolve(nine)
            let isSummer = summerRanges.contains { $0.contains(date) }
            let expectedOffset = standardOffset + (isSummer ? 3600 : 0)
            #expect(zone.localDateTime(of: instant) == nine, "\(zoneName) \(date)")
            #expect(zone.offset(at: instant) == expectedOffset, "\(zoneName) \(date)")
            #expect(instant.seconds == date.daysSinceEpoch * 86_400 + 9 * 3600 - Int64(expectedOffset))
            date = date.adding(days: 1)
            checked += 1
        }
        #expect(checked == 400)
        #expect(date == CivilDate(year: 2027, month: 4, day: 5))
    }

    @Test func newYorkGapAndOverlap() throws {
        let zone = try TestSupport.zone("America/New_York")
        // 02:30 does not exist on 2026-03-08: the answer is the end of the gap, 03:00 EDT.
        let gap = zone.resolve(TestSupport.local(2026, 3, 8, 2, 30))
        #expect(gap == TestSupport.utc("2026-03-08T07:00:00Z"))
        #expect(zone.localDateTime(of: gap) == TestSupport.local(2026, 3, 8, 3, 0))
        #expect(zone.abbreviation(at: gap) == "EDT")
        #expect(zone.resolve(TestSupport.local(2026, 3, 8, 2, 0)) == TestSupport.utc("2026-03-08T07:00:00Z"))
        #expect(zone.resolve(TestSupport.local(2026, 3, 8, 1, 59, 59)) == TestSupport.utc("2026-03-08T06:59:59Z"))
        #expect(zone.resolve(TestSupport.local(2026, 3, 8, 3, 0)) == TestSupport.utc("2026-03-08T07:00:00Z"))
        // 01:30 happens twice on 2026-11-01: the EDT one comes first.
        let overlap = zone.resolve(TestSupport.local(2026, 11, 1, 1, 30))
        #expect(overlap == TestSupport.utc("2026-11-01T05:30:00Z"))
        #expect(zone.abbreviation(at: overlap) == "EDT")
        #expect(zone.localDateTime(of: overlap.adding(seconds: 3600)) == TestSupport.local(2026, 11, 1, 1, 30))
        #expect(zone.resolve(TestSupport.local(2026, 11, 1, 2, 0)) == TestSupport.utc("2026-11-01T07:00:00Z"))
        #expect(zone.resolve(TestSupport.local(2026, 11, 1, 0, 59, 59)) == TestSupport.utc("2026-11-01T04:59:59Z"))
    }

    @Test func berlinGapAndOverlap() throws {
        let zone = try TestSupport.zone("Europe/Berlin")
        #expect(zone.resolve(TestSupport.local(2027, 3, 28, 2, 30)) == TestSupport.utc("2027-03-28T01:00:00Z"))
        #expect(zone.resolve(TestSupport.local(2027, 10, 31, 2, 30)) == TestSupport.utc("2027-10-31T00:30:00Z"))
        #expect(zone.abbreviation(at: TestSupport.utc("2027-10-31T00:30:00Z")) == "CEST")
    }

    /// Instants in 2100 lie past the file's last transition (2037), so only the footer rule can answer.
    @Test func footerRuleGovernsTheFarFuture() throws {
        let zone = try TestSupport.zone("America/New_York")
        let lastTransition = try #require(zone.transitionTimes.last)
        #expect(lastTransition < TestSupport.utc("2040-01-01T00:00:00Z").seconds)
        #expect(zone.footer == PosixTimeZoneParser.parse("EST5EDT,M3.2.0,M11.1.0"))
        let start = TestSupport.utc("2100-03-14T07:00:00Z")   // second Sunday of March 2100, 02:00 EST
        let end = TestSupport.utc("2100-11-07T06:00:00Z")     // first Sunday of November 2100, 02:00 EDT
        #expect(zone.offset(at: start.adding(seconds: -1)) == -5 * 3600)
        #expect(zone.offset(at: start) == -4 * 3600)
        #expect(zone.abbreviation(at: start) == "EDT")
        #expect(zone.offset(at: end.adding(seconds: -1)) == -4 * 3600)
        #expect(zone.offset(at: end) == -5 * 3600)
        #expect(zone.resolve(TestSupport.local(2100, 3, 14, 2, 30)) == start)
        #expect(zone.resolve(TestSupport.local(2100, 11, 7, 1, 30)) == end.adding(seconds: -1800))
        // Berlin's footer says the last Sunday of October at 03:00 CEST.
        let berlin = try TestSupport.zone("Europe/Berlin")
        #expect(berlin.offset(at: TestSupport.utc("2100-10-31T00:59:59Z")) == 7200)
        #expect(berlin.offset(at: TestSupport.utc("2100-10-31T01:00:00Z")) == 3600)
    }

    /// Where the file lists transitions explicitly (up to 2037), the footer rule must agree with them.
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Pacific/Chatham",
                      "America/St_Johns", "Asia/Jerusalem", "America/Nuuk", "America/Santiago"])
    func footerAgreesWithExplicitTransitions(zoneName: String) throws {
        let zone = try TestSupport.zone(zoneName)
        let footer = try #require(zone.footer)
        let explicit = zone.transitionTimes.filter { $0 >= TestSupport.utc("2026-01-01T00:00:00Z").seconds }
        #expect(explicit.count >= 20)
        for time in explicit.dropLast() {
            for probe in [time - 1, time, time + 1] {
                #expect(zone.localTimeType(at: probe) == footer.type(at: probe), "\(zoneName) \(probe)")
            }
        }
    }

    @Test func beforeTheFirstTransitionUsesTypeZero() throws {
        let zone = try TestSupport.zone("America/New_York")
        let first = try #require(zone.transitionTimes.first)
        #expect(zone.localTimeType(at: first - 1) == zone.types[0])
        #expect(zone.abbreviation(at: Instant(seconds: first - 1)) == "LMT")
        #expect(zone.offset(at: Instant(seconds: first - 1)) == -(4 * 3600 + 56 * 60 + 2))
        #expect(zone.offset(at: Instant(seconds: Int64.min)) == -(4 * 3600 + 56 * 60 + 2))
    }
}
