/// When in a year a POSIX TZ string switches to or from daylight time (`Jn`, `n` or `Mm.w.d`, plus `/time`).
struct TransitionRule: Hashable, Sendable {
    /// The day of the year the switch happens on.
    enum Day: Hashable, Sendable {
        /// `Jn`: day 1...365 counting from January 1st, never counting February 29th.
        case julianSkippingLeapDay(Int)
        /// `n`: day 0...365 counting from January 1st, February 29th included.
        case zeroBasedDayOfYear(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    var day: Day
    /// Seconds after local midnight of `day` (RFC 8536 allows −167 h … +167 h).
    var time: Int

    /// The wall-clock moment of the switch in `year`, as seconds since 1970-01-01T00:00 local.
    func localSeconds(inYear year: Int) -> Int64 {
        let jan1 = GregorianCalendar.daysSinceEpoch(year: year, month: 1, day: 1)
        let days: Int64
        switch day {
        case .julianSkippingLeapDay(let n):
            let afterLeapDay = GregorianCalendar.isLeapYear(year) && n >= 60
            days = jan1 + Int64(n - 1 + (afterLeapDay ? 1 : 0))
        case .zeroBasedDayOfYear(let n):
            days = jan1 + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = GregorianCalendar.daysSinceEpoch(year: year, month: month, day: 1)
            let firstWeekday = GregorianCalendar.weekday(ofDaysSinceEpoch: first)
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            let length = GregorianCalendar.daysInMonth(year: year, month: month)
            while dayOfMonth > length { dayOfMonth -= 7 }
            days = first + Int64(dayOfMonth - 1)
        }
        return days * 86_400 + Int64(time)
    }
}
