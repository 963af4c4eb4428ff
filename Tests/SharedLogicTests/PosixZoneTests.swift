import Testing
@testable import SharedLogic

@Suite struct PosixZoneTests {
    private func zone(_ text: String) throws -> ZoneRules {
        try #require(ZoneRules(posix: text), "\(text) should parse")
    }

    @Test func fixedZones() throws {
        let utc = try zone("UTC0")
        #expect(utc.offset(at: TestSupport.utc("2026-07-01T00:00:00Z")) == 0)
        #expect(utc.abbreviation(at: TestSupport.utc("2026-07-01T00:00:00Z")) == "UTC")
        #expect(utc.name == "UTC0")
        let est = try zone("EST5")
        for text in ["2026-01-15T12:00:00Z", "2026-07-15T12:00:00Z"] {
            #expect(est.offset(at: TestSupport.utc(text)) == -5 * 3600)
            #expect(est.abbreviation(at: TestSupport.utc(text)) == "EST")
            #expect(!est.isDaylightTime(at: TestSupport.utc(text)))
        }
        #expect(try zone("EST+5").offset(at: Instant(seconds: 0)) == -5 * 3600)
        #expect(try zone("JST-9").offset(at: Instant(seconds: 0)) == 9 * 3600)
        let iran = try zone("<+0330>-3:30")
        #expect(iran.offset(at: Instant(seconds: 0)) == 3 * 3600 + 1800)
        #expect(iran.abbreviation(at: Instant(seconds: 0)) == "+0330")
        let odd = try zone("<-0456>4:56:02")
        #expect(odd.offset(at: Instant(seconds: 0)) == -(4 * 3600 + 56 * 60 + 2))
    }

    @Test func usRulesAndDefaultDaylightOffset() throws {
        for text in ["EST5EDT,M3.2.0,M11.1.0", "EST5EDT4,M3.2.0/2,M11.1.0/02:00:00", "EST5EDT"] {
            let rules = try zone(text)
            let start = TestSupport.utc("2026-03-08T07:00:00Z")
            let end = TestSupport.utc("2026-11-01T06:00:00Z")
            #expect(rules.offset(at: start.adding(seconds: -1)) == -5 * 3600, "\(text)")
            #expect(rules.offset(at: start) == -4 * 3600, "\(text)")
            #expect(rules.abbreviation(at: start) == "EDT")
            #expect(rules.isDaylightTime(at: start))
            #expect(rules.offset(at: end.adding(seconds: -1)) == -4 * 3600, "\(text)")
            #expect(rules.offset(at: end) == -5 * 3600, "\(text)")
        }
    }

    @Test func southernHemisphere() throws {
        let sydney = try zone("AEST-10AEDT,M10.1.0,M4.1.0/3")
        #expect(sydney.offset(at: TestSupport.utc("2026-01-15T00:00:00Z")) == 11 * 3600)
        #expect(sydney.abbreviation(at: TestSupport.utc("2026-01-15T00:00:00Z")) == "AEDT")
        #expect(sydney.offset(at: TestSupport.utc("2026-07-15T00:00:00Z")) == 10 * 3600)
        // Ends 2026-04-05 03:00 AEDT, starts 2026-10-04 02:00 AEST.
        #expect(sydney.offset(at: TestSupport.utc("2026-04-04T15:59:59Z")) == 11 * 3600)
        #expect(sydney.offset(at: TestSupport.utc("2026-04-04T16:00:00Z")) == 10 * 3600)
        #expect(sydney.offset(at: TestSupport.utc("2026-10-03T15:59:59Z")) == 10 * 3600)
        #expect(sydney.offset(at: TestSupport.utc("2026-10-03T16:00:00Z")) == 11 * 3600)
        #expect(sydney.offset(at: TestSupport.utc("2026-12-31T23:59:59Z")) == 11 * 3600)
        // Gap: 02:30 on 2026-10-04 → 03:00 AEDT; overlap: 02:30 on 2026-04-05 → the AEDT one.
        #expect(sydney.resolve(TestSupport.local(2026, 10, 4, 2, 30)) == TestSupport.utc("2026-10-03T16:00:00Z"))
        #expect(sydney.resolve(TestSupport.local(2026, 4, 5, 2, 30)) == TestSupport.utc("2026-04-04T15:30:00Z"))
    }

    @Test func negativeAndLargeRuleTimes() throws {
        // Greenland: DST starts on the last Sunday of March at -1:00, i.e. Saturday 23:00 local standard time.
        let nuuk = try zone("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.offset(at: TestSupport.utc("2026-03-29T00:59:59Z")) == -2 * 3600)
        #expect(nuuk.offset(at: TestSupport.utc("2026-03-29T01:00:00Z")) == -1 * 3600)
        #expect(nuuk.abbreviation(at: TestSupport.utc("2026-03-29T01:00:00Z")) == "-01")
        #expect(nuuk.offset(at: TestSupport.utc("2026-10-25T00:59:59Z")) == -1 * 3600)
        #expect(nuuk.offset(at: TestSupport.utc("2026-10-25T01:00:00Z")) == -2 * 3600)
        // Israel: the Friday before the last Sunday of March at 02:00 written as Thursday 26:00.
        let israel = try zone("IST-2IDT,M3.4.4/26,M10.5.0")
        #expect(israel.offset(at: TestSupport.utc("2026-03-26T23:59:59Z")) == 2 * 3600)
        #expect(israel.offset(at: TestSupport.utc("2026-03-27T00:00:00Z")) == 3 * 3600)
        #expect(israel.offset(at: TestSupport.utc("2026-10-24T22:59:59Z")) == 3 * 3600)
        #expect(israel.offset(at: TestSupport.utc("2026-10-24T23:00:00Z")) == 2 * 3600)
        // Rule times with minutes and a sign (Chatham).
        let chatham = try zone("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45")
        #expect(chatham.offset(at: TestSupport.utc("2026-07-01T00:00:00Z")) == 12 * 3600 + 45 * 60)
        #expect(chatham.offset(at: TestSupport.utc("2026-01-01T00:00:00Z")) == 13 * 3600 + 45 * 60)
    }

    @Test func julianDayRules() throws {
        // Jn never counts February 29th: J60 is always March 1st.
        let julian = try zone("XST0XDT,J60/0,J300/0")
        #expect(julian.offset(at: TestSupport.utc("2024-02-29T23:59:59Z")) == 0)
        #expect(julian.offset(at: TestSupport.utc("2024-03-01T00:00:00Z")) == 3600)
        #expect(julian.offset(at: TestSupport.utc("2023-02-28T23:59:59Z")) == 0)
        #expect(julian.offset(at: TestSupport.utc("2023-03-01T00:00:00Z")) == 3600)
        // n counts from zero and includes February 29th: day 59 is Feb 29 in leap years, Mar 1 otherwise.
        let zeroBased = try zone("XST0XDT,59/0,299/0")
        #expect(zeroBased.offset(at: TestSupport.utc("2024-02-28T23:59:59Z")) == 0)
        #expect(zeroBased.offset(at: TestSupport.utc("2024-02-29T00:00:00Z")) == 3600)
        #expect(zeroBased.offset(at: TestSupport.utc("2023-02-28T23:59:59Z")) == 0)
        #expect(zeroBased.offset(at: TestSupport.utc("2023-03-01T00:00:00Z")) == 3600)
        // J300/0 in DST time (+1): ends 27 Oct 00:00 local daylight = 26 Oct 23:00 UTC in any year.
        #expect(julian.offset(at: TestSupport.utc("2026-10-26T22:59:59Z")) == 3600)
        #expect(julian.offset(at: TestSupport.utc("2026-10-26T23:00:00Z")) == 0)
    }

    @Test func permanentDaylightTime() throws {
        // RFC 8536's example of DST all year: the end at Dec 31 25:00 meets the next start.
        let rules = try zone("EST5EDT,0/0,J365/25")
        for text in ["2026-01-01T00:00:00Z", "2026-01-01T05:00:00Z", "2026-06-01T00:00:00Z",
                     "2026-12-31T23:59:59Z", "2027-01-01T04:59:59Z", "2027-01-01T05:00:00Z"] {
            #expect(rules.offset(at: TestSupport.utc(text)) == -4 * 3600, "\(text)")
            #expect(rules.isDaylightTime(at: TestSupport.utc(text)))
        }
    }

    @Test func farFutureAndPast() throws {
        let rules = try zone("EST5EDT,M3.2.0,M11.1.0")
        #expect(rules.offset(at: TestSupport.utc("2100-03-14T07:00:00Z")) == -4 * 3600)
        #expect(rules.offset(at: TestSupport.utc("2100-03-14T06:59:59Z")) == -5 * 3600)
        // The rules repeat every 400 years.
        let cycle: Int64 = 146_097 * 86_400
        let probe = TestSupport.utc("2026-03-08T07:00:00Z").seconds
        for k: Int64 in [-1_000, -3, -1, 1, 7, 100_000] {
            #expect(rules.offset(at: Instant(seconds: probe + k * cycle)) == -4 * 3600)
            #expect(rules.offset(at: Instant(seconds: probe - 1 + k * cycle)) == -5 * 3600)
        }
        // Extreme instants answer without trapping.
        #expect([-5 * 3600, -4 * 3600].contains(rules.offset(at: Instant(seconds: .max))))
        #expect([-5 * 3600, -4 * 3600].contains(rules.offset(at: Instant(seconds: .min))))
        _ = rules.localDateTime(of: Instant(seconds: .max))
        _ = rules.localDateTime(of: Instant(seconds: .min))
        _ = rules.resolve(TestSupport.local(Int(Int32.max), 1, 1, 0, 0))
    }

    @Test(arguments: [
        "", "ES5", "EST", "5", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0",
        "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J100", "EST5EDT,J366,J100", "EST5EDT,366,10", "EST25",
        "<AB>5", "<ABC5", "EST5EDT,M3.2.0/168,M11.1.0", "EST5 ", "EST5,M3.2.0,M11.1.0", "EST5:60",
        "EST5EDT,M3.2.0,M11.1.0,", "EST5ED", "E1T5", "EST5EDT25", "America/New_York", ":EST5",
        "EST5EDT,M3.2.0/,M11.1.0", "EST5EDT;M3.2.0,M11.1.0", "<A B>5",
    ])
    func rejectsMalformedStrings(text: String) {
        #expect(ZoneRules(posix: text) == nil)
    }

    @Test func acceptsBoundaryRuleTimes() throws {
        let early = try zone("XST0XDT,M3.5.0/-167,M10.5.0/167")
        let late = try zone("XST0XDT,M3.5.0/167:59:59,M10.5.0")
        #expect(early != late)
        // Last Sunday of March 2026 is the 29th; minus 167 h is 2026-03-22 01:00.
        #expect(early.offset(at: TestSupport.utc("2026-03-22T00:59:59Z")) == 0)
        #expect(early.offset(at: TestSupport.utc("2026-03-22T01:00:00Z")) == 3600)
    }
}
