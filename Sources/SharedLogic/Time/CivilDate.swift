/// A calendar day in the proleptic Gregorian calendar, with no time zone.
public struct CivilDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int   // 1...12
    public var day: Int     // 1...31
    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }
    /// Days since 1970-01-01.
    public init(daysSinceEpoch: Int64) { fatalError("stub") }
    public var daysSinceEpoch: Int64 { fatalError("stub") }
    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int { fatalError("stub") }
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days)) }
    /// `2026-12-01`
    public var description: String { fatalError("stub") }
    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) { fatalError("stub") }
    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}

/// A wall-clock date and time with no zone.
public struct LocalDateTime: Hashable, Sendable {
    public var date: CivilDate
    public var hour: Int, minute: Int, second: Int
    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        self.date = date; self.hour = hour; self.minute = minute; self.second = second
    }
}
