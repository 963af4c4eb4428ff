/// ISO 8601 text for instants, with the zone's offset (`2026-12-01T09:00:00-05:00`, `...+00:00` for UTC).
public enum ISO8601 {
    public static func format(_ instant: Instant, in zone: ZoneRules) -> String { fatalError("stub") }
    /// Parses `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`.
    public static func parse(_ text: String) -> Instant? { fatalError("stub") }
}
