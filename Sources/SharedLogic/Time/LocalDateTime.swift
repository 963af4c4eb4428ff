/// A wall-clock date and time with no zone; earlier readings sort first.
public struct LocalDateTime: Hashable, Sendable, Comparable {
    public var date: CivilDate
    public var hour: Int, minute: Int, second: Int
    public init(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        self.date = date; self.hour = hour; self.minute = minute; self.second = second
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }
}

extension LocalDateTime {
    /// Seconds since 1970-01-01T00:00:00 on this (zone-less) wall clock.
    /// Out-of-range hours, minutes and seconds are normalised linearly; clamps instead of overflowing.
    var secondsSinceEpoch: Int64 {
        let days = TimeArithmetic.multiply(date.daysSinceEpoch, 86_400)
        let h = TimeArithmetic.multiply(TimeArithmetic.wide(hour), 3_600)
        let m = TimeArithmetic.multiply(TimeArithmetic.wide(minute), 60)
        return TimeArithmetic.add(TimeArithmetic.add(days, h), TimeArithmetic.add(m, TimeArithmetic.wide(second)))
    }

    /// The wall-clock reading `seconds` after 1970-01-01T00:00:00.
    init(secondsSinceEpoch seconds: Int64) {
        let days = TimeArithmetic.floorDiv(seconds, 86_400)
        let secondOfDay = Int(TimeArithmetic.floorMod(seconds, 86_400))
        self.init(date: CivilDate(daysSinceEpoch: days),
                  hour: secondOfDay / 3_600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// The wall-clock reading of `instant` seen with a UTC offset of `offset` seconds (never overflows).
    init(instant: Instant, offset: Int) {
        let days = TimeArithmetic.floorDiv(instant.seconds, 86_400)
        let secondOfDay = TimeArithmetic.floorMod(instant.seconds, 86_400) + TimeArithmetic.wide(offset)
        let extraDays = TimeArithmetic.floorDiv(secondOfDay, 86_400)
        let local = Int(TimeArithmetic.floorMod(secondOfDay, 86_400))
        self.init(date: CivilDate(daysSinceEpoch: TimeArithmetic.add(days, extraDays)),
                  hour: local / 3_600, minute: local / 60 % 60, second: local % 60)
    }
}
