/// A calendar day in the proleptic Gregorian calendar, with no time zone.
///
/// `month` and `day` are not validated by the memberwise initializer; out-of-range values are
/// normalised linearly by `daysSinceEpoch` (month 13 is January of the next year, day 0 is the
/// last day of the previous month). Years within ±25 quadrillion convert exactly.
public struct CivilDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int   // 1...12
    public var day: Int     // 1...31
    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }

    /// Days since 1970-01-01.
    public init(daysSinceEpoch: Int64) {
        self = GregorianCalendar.date(fromDaysSinceEpoch: daysSinceEpoch)
    }

    public var daysSinceEpoch: Int64 {
        GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int { GregorianCalendar.weekday(ofDaysSinceEpoch: daysSinceEpoch) }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days)) }

    /// `2026-12-01`
    public var description: String { CivilDateText.format(self) }

    /// Parses `YYYY-MM-DD`; nil for anything else, including impossible dates such as `2026-02-30`.
    public init?(_ text: String) {
        guard let date = CivilDateText.parse(Array(text.utf8)[...]) else { return nil }
        self = date
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}
