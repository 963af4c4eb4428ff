/// ISO 8601 text for instants, with the zone's offset (`2026-12-01T09:00:00-05:00`, `...+00:00` for UTC).
public enum ISO8601 {
    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`.
    ///
    /// Offsets that are not whole minutes (historical local mean time, e.g. −04:56:02) are rounded to
    /// the nearest minute and the wall-clock part is shown in that rounded offset, so the text still
    /// names exactly `instant` (`parse(format(t, in: z)) == t` for every zone).
    public static func format(_ instant: Instant, in zone: ZoneRules) -> String {
        format(instant, offset: zone.offset(at: instant))
    }

    /// `format` at a UTC offset of `exact` seconds.
    public static func format(_ instant: Instant, offset exact: Int) -> String {
        let rounded = roundedToMinute(exact)
        let local = LocalDateTime(instant: instant, offset: rounded)
        let minutes = rounded.magnitude / 60
        return CivilDateText.format(local.date) + "T"
            + DecimalText.padded(local.hour, width: 2) + ":"
            + DecimalText.padded(local.minute, width: 2) + ":"
            + DecimalText.padded(local.second, width: 2)
            + (rounded < 0 ? "-" : "+")
            + DecimalText.padded(Int(minutes / 60), width: 2) + ":"
            + DecimalText.padded(Int(minutes % 60), width: 2)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`.
    public static func parse(_ text: String) -> Instant? { parseWithOffset(text)?.instant }

    /// The instant a text of `format` names and the wall-clock reading it gives (its date and time
    /// as written, at its offset).
    public static func parseLocal(_ text: String) -> (instant: Instant, wall: LocalDateTime)? {
        guard let (instant, offset) = parseWithOffset(text) else { return nil }
        return (instant, LocalDateTime(instant: instant, offset: offset))
    }

    private static func parseWithOffset(_ text: String) -> (instant: Instant, offset: Int)? {
        let bytes = Array(text.utf8)
        guard let t = bytes.firstIndex(of: UInt8(ascii: "T")),
              let date = CivilDateText.parse(bytes[..<t])
        else { return nil }
        let rest = bytes[(t + 1)...]
        guard rest.count >= 9,
              let hour = DecimalText.fixedDigits(rest, count: 2), hour < 24,
              rest.dropFirst(2).first == UInt8(ascii: ":"),
              let minute = DecimalText.fixedDigits(rest.dropFirst(3), count: 2), minute < 60,
              rest.dropFirst(5).first == UInt8(ascii: ":"),
              let second = DecimalText.fixedDigits(rest.dropFirst(6), count: 2), second < 60,
              let offset = parseOffset(rest.dropFirst(8))
        else { return nil }
        let wall = LocalDateTime(date: date, hour: hour, minute: minute, second: second).secondsSinceEpoch
        return (Instant(seconds: TimeArithmetic.add(wall, -Int64(offset))), offset)
    }

    /// `Z` → 0, `±HH:MM` → seconds east; the whole remaining text must match.
    private static func parseOffset(_ text: ArraySlice<UInt8>) -> Int? {
        if text.elementsEqual([UInt8(ascii: "Z")]) { return 0 }
        guard text.count == 6,
              let signByte = text.first, signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-"),
              let hours = DecimalText.fixedDigits(text.dropFirst(), count: 2), hours < 24,
              text.dropFirst(3).first == UInt8(ascii: ":"),
              let minutes = DecimalText.fixedDigits(text.dropFirst(4), count: 2), minutes < 60
        else { return nil }
        let magnitude = hours * 3_600 + minutes * 60
        return signByte == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    /// Nearest whole minute, halves away from zero.
    private static func roundedToMinute(_ seconds: Int) -> Int {
        let minutes = (seconds.magnitude + 30) / 60
        return seconds < 0 ? -Int(minutes * 60) : Int(minutes * 60)
    }
}
