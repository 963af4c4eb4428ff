/// The rules of a POSIX TZ string: a standard time and optionally a yearly daylight-saving period.
struct PosixTimeZone: Hashable, Sendable {
    /// The daylight-saving part of a POSIX TZ string.
    struct DaylightSaving: Hashable, Sendable {
        var type: LocalTimeType
        /// Switch to daylight time, expressed in standard local time.
        var start: TransitionRule
        /// Switch back to standard time, expressed in daylight local time.
        var end: TransitionRule
    }

    var standard: LocalTimeType
    var daylight: DaylightSaving?

    /// Every local time type this zone can be in.
    var types: [LocalTimeType] { [standard] + (daylight.map { [$0.type] } ?? []) }

    /// The calendar repeats exactly every 400 Gregorian years, and so do these rules.
    private static let cycle: Int64 = GregorianCalendar.daysPerEra * 86_400

    /// The local time type in effect at `seconds` since the epoch.
    func type(at seconds: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        let reduced = TimeArithmetic.floorMod(seconds, Self.cycle)      // 1970 ..< 2370
        let year = CivilDate(daysSinceEpoch: reduced / 86_400).year
        // Switches of year Y fall within about a week of that year (times may reach ±167 h),
        // so the last switch at or before `reduced` belongs to one of these years.
        var current = standard
        for event in events(daylight, years: (year - 2)...(year + 1)) where event.time <= reduced {
            current = event.isStart ? daylight.type : standard
        }
        return current
    }

    /// Instants in `(after, through]` at which this zone may switch type, ascending.
    /// Meant for short spans (a few days); spans longer than 400 years are cut to 400 years.
    func switches(after lower: Int64, through upper: Int64) -> [Int64] {
        guard let daylight, lower < upper else { return [] }
        let (rawSpan, overflow) = upper.subtractingReportingOverflow(lower)
        let span = overflow ? Self.cycle : min(rawSpan, Self.cycle)
        let base = TimeArithmetic.floorMod(lower, Self.cycle)
        let firstYear = CivilDate(daysSinceEpoch: base / 86_400).year - 1
        let lastYear = CivilDate(daysSinceEpoch: (base + span) / 86_400).year + 1
        return events(daylight, years: firstYear...lastYear)
            .map(\.time)
            .filter { $0 > base && $0 <= base + span }
            .map { lower + ($0 - base) }
    }

    private struct Event {
        var time: Int64
        var isStart: Bool
    }

    /// Daylight start and end switches of `years` as UTC seconds, in the order they happen
    /// (simultaneous switches keep the order start(Y), end(Y), start(Y+1), ...).
    private func events(_ daylight: DaylightSaving, years: ClosedRange<Int>) -> [Event] {
        var events: [(Event, Int)] = []
        for year in years {
            let start = daylight.start.localSeconds(inYear: year) - Int64(standard.offset)
            let end = daylight.end.localSeconds(inYear: year) - Int64(daylight.type.offset)
            events.append((Event(time: start, isStart: true), events.count))
            events.append((Event(time: end, isStart: false), events.count))
        }
        events.sort { ($0.0.time, $0.1) < ($1.0.time, $1.1) }
        return events.map(\.0)
    }
}
