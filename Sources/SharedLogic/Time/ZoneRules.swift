/// The rules of one time zone: UTC offset and abbreviation at any instant (from TZif data or a POSIX TZ string).
public struct ZoneRules: Sendable, Hashable {
    public let name: String
    public static let utc = ZoneRules(name: "UTC")
    private init(name: String) { self.name = name }
    /// Parses TZif (RFC 8536, versions 1-4) bytes.
    public init(tzif bytes: [UInt8], name: String) throws(ZoneRulesError) { fatalError("stub") }
    /// Parses a POSIX TZ string such as `EST5EDT,M3.2.0,M11.1.0`; nil when it is not one.
    public init?(posix: String) { fatalError("stub") }
    /// Seconds east of UTC in effect at `instant`.
    public func offset(at instant: Instant) -> Int { fatalError("stub") }
    public func abbreviation(at instant: Instant) -> String { fatalError("stub") }
    public func isDaylightTime(at instant: Instant) -> Bool { fatalError("stub") }
    public func localDateTime(of instant: Instant) -> LocalDateTime { fatalError("stub") }
    /// The instant a wall-clock time happens. Skipped (spring-forward gap): the first instant after the gap.
    /// Repeated (fall-back overlap): the earlier of the two.
    public func resolve(_ local: LocalDateTime) -> Instant { fatalError("stub") }
}

/// Why TZif bytes could not be read.
public struct ZoneRulesError: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
