import Foundation
import Testing
import TestSupport
@testable import SharedLogic

@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, Int64(0), 4),
        (2026, 11, 30, Int64(20_787), 1),
        (2026, 12, 1, Int64(20_788), 2),
        (2000, 1, 1, Int64(10_957), 6),
        (1582, 10, 15, Int64(-141_427), 5),
        (1, 1, 1, Int64(-719_162), 1),
        (2100, 3, 14, Int64(47_554), 0),
        (1969, 12, 31, Int64(-1), 3),
    ])
    func knownDays(year: Int, month: Int, day: Int, days: Int64, weekday: Int) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.weekday == weekday)
    }

    @Test func consecutiveDaysStepThroughTheCalendar() {
        // From 1599-12-31 to 2401-01-01 every day must be the calendar successor of the previous one.
        var previous = CivilDate(daysSinceEpoch: CivilDate(year: 1599, month: 12, day: 31).daysSinceEpoch)
        #expect(previous == CivilDate(year: 1599, month: 12, day: 31))
        let first = previous.daysSinceEpoch + 1
        let last = CivilDate(year: 2401, month: 1, day: 1).daysSinceEpoch
        var failures = 0
        for days in first...last {
            let date = CivilDate(daysSinceEpoch: days)
            if date != Self.successor(of: previous) || date.daysSinceEpoch != days
                || date.weekday != (previous.weekday + 1) % 7 {
                failures += 1
            }
            previous = date
        }
        #expect(failures == 0)
        #expect(previous == CivilDate(year: 2401, month: 1, day: 1))
    }

    @Test func roundTripsOverAWideRange() {
        var generator = SeededRandom(seed: 1)
        var samples: [Int64] = [0, -1, 1, Int64.max / 86_400, Int64.min / 86_400,
                                Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for _ in 0..<20_000 { samples.append(Int64.random(in: -4_000_000_000_000...4_000_000_000_000, using: &generator)) }
        for _ in 0..<20_000 { samples.append(Int64.random(in: -3_000_000...3_000_000, using: &generator)) }
        var failures: [Int64] = []
        for days in samples {
            let date = CivilDate(daysSinceEpoch: days)
            let valid = (1...12).contains(date.month)
                && (1...GregorianCalendar.daysInMonth(year: date.year, month: date.month)).contains(date.day)
            if !valid || date.daysSinceEpoch != days { failures.append(days) }
        }
        #expect(failures.count == 0, "\(failures.prefix(5))")
    }

    @Test func agreesWithFoundationsGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SeededRandom(seed: 2)
        for _ in 0..<2_000 {
            // 1600-01-01 ... 3000-12-31: after Foundation's Julian/Gregorian cutover.
            let days = Int64.random(in: -135_140...376_199, using: &generator)
            let date = Date(timeIntervalSince1970: TimeInterval(days * 86_400))
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let civil = CivilDate(daysSinceEpoch: days)
            #expect(civil == CivilDate(year: parts.year!, month: parts.month!, day: parts.day!))
            #expect(civil.weekday == parts.weekday! - 1)
        }
    }

    @Test func outOfRangeFieldsNormalise() {
        #expect(CivilDate(year: 2026, month: 13, day: 1).daysSinceEpoch == CivilDate(year: 2027, month: 1, day: 1).daysSinceEpoch)
        #expect(CivilDate(year: 2026, month: 3, day: 0).daysSinceEpoch == CivilDate(year: 2026, month: 2, day: 28).daysSinceEpoch)
        #expect(CivilDate(year: 2026, month: 0, day: 1).daysSinceEpoch == CivilDate(year: 2025, month: 12, day: 1).daysSinceEpoch)
        #expect(CivilDate(year: 2024, month: 2, day: 28).adding(days: 1) == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(year: 2023, month: 2, day: 28).adding(days: 1) == CivilDate(year: 2023, month: 3, day: 1))
        #expect(CivilDate(year: 2026, month: 1, day: 1).adding(days: -1) == CivilDate(year: 2025, month: 12, day: 31))
    }

    @Test func ordering() {
        #expect(CivilDate(year: 2026, month: 1, day: 31) < CivilDate(year: 2026, month: 2, day: 1))
        #expect(!(CivilDate(year: 2026, month: 2, day: 1) < CivilDate(year: 2026, month: 2, day: 1)))
        #expect(CivilDate(year: -1, month: 12, day: 31) < CivilDate(year: 0, month: 1, day: 1))
    }

    @Test(arguments: [
        (CivilDate(year: 2026, month: 12, day: 1), "2026-12-01"),
        (CivilDate(year: 5, month: 3, day: 7), "0005-03-07"),
        (CivilDate(year: 0, month: 1, day: 1), "0000-01-01"),
        (CivilDate(year: -44, month: 3, day: 15), "-0044-03-15"),
        (CivilDate(year: 12_345, month: 10, day: 31), "12345-10-31"),
    ])
    func formatsAndParses(date: CivilDate, text: String) {
        #expect(date.description == text)
        #expect(CivilDate(text) == date)
    }

    @Test(arguments: [
        "2026-02-30", "2023-02-29", "2100-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-00",
        "2026-1-01", "2026-01-1", "26-01-01", " 2026-01-01", "2026-01-01 ", "+2026-01-01", "2026/01/01",
        "2026-01-01T00:00", "", "-", "-0000-01-01", "02026-01-01", "2026-0a-01", "２０２６-01-01",
    ])
    func rejectsInvalidText(text: String) {
        #expect(CivilDate(text) == nil)
    }

    @Test func acceptsLeapDays() {
        #expect(CivilDate("2024-02-29") == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate("2000-02-29") == CivilDate(year: 2000, month: 2, day: 29))
    }

    @Test func descriptionRoundTripsForAnyDay() {
        var generator = SeededRandom(seed: 3)
        for _ in 0..<5_000 {
            let date = CivilDate(daysSinceEpoch: Int64.random(in: -10_000_000...10_000_000, using: &generator))
            #expect(CivilDate(date.description) == date)
        }
    }

    @Test func shortDisplay() {
        #expect(TestSupport.local(2026, 11, 30, 9, 0).shortDisplay == "Mon 30 Nov 09:00")
        #expect(TestSupport.local(2000, 1, 1, 0, 5).shortDisplay == "Sat 1 Jan 00:05")
        #expect(TestSupport.local(2027, 7, 4, 23, 59).shortDisplay == "Sun 4 Jul 23:59")
        #expect(TestSupport.local(2026, 9, 16, 14, 7).shortDisplay == "Wed 16 Sep 14:07")
    }

    /// The next calendar day, from the month lengths alone.
    static func successor(of date: CivilDate) -> CivilDate {
        let leap = (date.year % 4 == 0 && date.year % 100 != 0) || date.year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if date.day < lengths[date.month - 1] { return CivilDate(year: date.year, month: date.month, day: date.day + 1) }
        if date.month < 12 { return CivilDate(year: date.year, month: date.month + 1, day: 1) }
        return CivilDate(year: date.year + 1, month: 1, day: 1)
    }
}
