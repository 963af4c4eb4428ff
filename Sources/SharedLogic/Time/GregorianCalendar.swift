/// Day-number arithmetic for the proleptic Gregorian calendar.
///
/// Internally years are counted from March 1st so that the leap day is the last day of the
/// year; 400 Gregorian years ("an era") are exactly 146 097 days.
enum GregorianCalendar {
    static let daysPerEra: Int64 = 146_097
    /// Days from 0000-03-01 to 1970-01-01.
    static let epochShift: Int64 = 719_468

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let monthIndex = TimeArithmetic.wide(month) &- 1
        var y = TimeArithmetic.add(TimeArithmetic.wide(year), TimeArithmetic.floorDiv(monthIndex, 12))
        let m = TimeArithmetic.floorMod(monthIndex, 12) + 1          // 1...12
        if m <= 2 { y = TimeArithmetic.add(y, -1) }
        let marchMonth = m <= 2 ? m + 9 : m - 3                       // 0 = March ... 11 = February
        // Eras counted from 2000-03-01, itself an era start 11 017 days after the epoch.
        let era = TimeArithmetic.floorDiv(TimeArithmetic.add(y, -2000), 400)
        let yearOfEra = TimeArithmetic.add(y, -2000) - era * 400      // 0...399
        let dayOfYear = (153 * marchMonth + 2) / 5                     // first day of the month
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let dayOffset = TimeArithmetic.add(TimeArithmetic.wide(day), -1)
        let withinEra = dayOfEra + 11_017                              // 11 017 ..< 157 114
        let (eraStart, overflow) = era.multipliedReportingOverflow(by: daysPerEra)
        if !overflow {
            return TimeArithmetic.add(TimeArithmetic.add(eraStart, withinEra), dayOffset)
        }
        // Near the ends of the Int64 range: move two eras into the small term so exact results still fit.
        let nearer = era > 0 ? era - 2 : era + 2
        let adjusted = era > 0 ? withinEra + 2 * daysPerEra : withinEra - 2 * daysPerEra
        return TimeArithmetic.add(TimeArithmetic.add(TimeArithmetic.multiply(nearer, daysPerEra), dayOffset), adjusted)
    }

    static func date(fromDaysSinceEpoch days: Int64) -> CivilDate {
        // Split first so that shifting the origin to 0000-03-01 cannot overflow.
        let coarseEra = TimeArithmetic.floorDiv(days, daysPerEra)
        let shifted = TimeArithmetic.floorMod(days, daysPerEra) + epochShift   // 0 ..< 2 eras
        let era = coarseEra + shifted / daysPerEra
        let dayOfEra = shifted % daysPerEra                            // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153                     // 0 = March
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0)
        return CivilDate(year: Int(year), month: Int(month), day: Int(day))
    }

    /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    static func weekday(ofDaysSinceEpoch days: Int64) -> Int {
        Int((TimeArithmetic.floorMod(days, 7) + 4) % 7)
    }
}
