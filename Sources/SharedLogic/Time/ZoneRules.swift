/// The rules of one time zone: UTC offset and abbreviation at any instant (from TZif data or a POSIX TZ string).
///
/// Before the first TZif transition the first local time type (type 0) applies, as RFC 8536
/// specifies; from the last transition on, the TZif footer's POSIX TZ string applies when present.
public struct ZoneRules: Sendable, Hashable {
    public let name: String
    /// Local time types referred to by `transitionTypes`; never empty.
    let types: [LocalTimeType]
    /// Strictly ascending instants at which the zone switches type.
    let transitionTimes: [Int64]
    /// `types` index in effect from the matching `transitionTimes` entry on.
    let transitionTypes: [UInt8]
    /// Rule for instants from the last transition on (for every instant when there are no transitions).
    let footer: PosixTimeZone?
    /// Smallest and largest UTC offset the zone can ever have.
    let offsetBounds: ClosedRange<Int>

    public static let utc = ZoneRules(name: "UTC")

    private init(name: String) {
        self.init(name: name, types: [.utc], transitionTimes: [], transitionTypes: [], footer: nil)
    }

    private init(name: String, types: [LocalTimeType], transitionTimes: [Int64],
                 transitionTypes: [UInt8], footer: PosixTimeZone?) {
        self.name = name
        self.types = types
        self.transitionTimes = transitionTimes
        self.transitionTypes = transitionTypes
        self.footer = footer
        let offsets = (types + (footer?.types ?? [])).map(\.offset)
        offsetBounds = (offsets.min() ?? 0)...(offsets.max() ?? 0)
    }

    /// Parses TZif (RFC 8536, versions 1-4) bytes.
    public init(tzif bytes: [UInt8], name: String) throws(ZoneRulesError) {
        let contents = try TZifParser.parse(bytes)
        self.init(name: name, types: contents.types, transitionTimes: contents.transitionTimes,
                  transitionTypes: contents.transitionTypes, footer: contents.footer)
    }

    /// Parses a POSIX TZ string such as `EST5EDT,M3.2.0,M11.1.0`; nil when it is not one.
    public init?(posix: String) {
        guard let rule = PosixTimeZoneParser.parse(posix) else { return nil }
        self.init(name: posix, types: rule.types, transitionTimes: [], transitionTypes: [], footer: rule)
    }

    /// Seconds east of UTC in effect at `instant`.
    public func offset(at instant: Instant) -> Int { localTimeType(at: instant.seconds).offset }

    /// The abbreviation in effect at `instant`, such as `EST` or `+0530`.
    public func abbreviation(at instant: Instant) -> String { localTimeType(at: instant.seconds).abbreviation }

    /// Whether daylight-saving time is in effect at `instant`.
    public func isDaylightTime(at instant: Instant) -> Bool { localTimeType(at: instant.seconds).isDaylightTime }

    /// The wall-clock date and time at `instant` in this zone.
    public func localDateTime(of instant: Instant) -> LocalDateTime {
        LocalDateTime(instant: instant, offset: offset(at: instant))
    }

    /// The local time type in effect at `seconds` since the epoch.
    func localTimeType(at seconds: Int64) -> LocalTimeType {
        guard let first = transitionTimes.first, let last = transitionTimes.last else {
            return footer?.type(at: seconds) ?? types[0]
        }
        if seconds < first { return types[0] }
        if seconds >= last, let footer { return footer.type(at: seconds) }
        return types[Int(transitionTypes[lastTransitionIndex(atOrBefore: seconds)])]
    }

    /// Index of the last transition at or before `seconds` (which must not precede the first one).
    private func lastTransitionIndex(atOrBefore seconds: Int64) -> Int {
        firstTransitionIndex(after: seconds) - 1
    }

    /// Index of the first transition strictly after `seconds` (`transitionTimes.count` if none).
    private func firstTransitionIndex(after seconds: Int64) -> Int {
        var low = 0
        var high = transitionTimes.count
        while low < high {
            let middle = low + (high - low) / 2
            if transitionTimes[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Instants in `(lower, upper]` at which the zone may change type, ascending (may include
    /// instants where nothing actually changes). Meant for spans of a few days.
    func switches(after lower: Int64, through upper: Int64) -> [Int64] {
        guard lower < upper else { return [] }
        var result: [Int64] = []
        var index = firstTransitionIndex(after: lower)
        while index < transitionTimes.count, transitionTimes[index] <= upper {
            result.append(transitionTimes[index])
            index += 1
        }
        if let footer {
            let footerStart = transitionTimes.last.map { max(lower, $0) } ?? lower
            result += footer.switches(after: footerStart, through: upper)
        }
        return result.sorted()
    }
}

/// Why TZif bytes could not be read.
public struct ZoneRulesError: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
