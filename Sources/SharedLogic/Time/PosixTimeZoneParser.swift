/// Reads POSIX TZ strings (with the RFC 8536 extensions) into `PosixTimeZone`.
///
/// Grammar: `std offset [dst [offset] [,start[/time],end[/time]]]` where names are 3+ letters or
/// `<...>` quoted (letters, digits, `+`, `-`), offsets are `[+-]hh[:mm[:ss]]` hours west of UTC,
/// and rule times may be negative or up to 167 hours.
struct PosixTimeZoneParser {
    private let bytes: [UInt8]
    private var position = 0

    /// Default daylight rules when a daylight name is given without rules (the US rules since 2007).
    static let defaultStart = TransitionRule(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7_200)
    static let defaultEnd = TransitionRule(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7_200)

    static func parse(_ text: String) -> PosixTimeZone? {
        var parser = PosixTimeZoneParser(bytes: Array(text.utf8))
        return parser.parseZone()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func consume(_ ascii: Unicode.Scalar) -> Bool {
        guard current == UInt8(ascii: ascii) else { return false }
        position += 1
        return true
    }

    private mutating func parseZone() -> PosixTimeZone? {
        guard let standardName = parseName(),
              let standardWest = parseClock(maxHours: 24)
        else { return nil }
        let standard = LocalTimeType(offset: -standardWest, isDaylightTime: false, abbreviation: standardName)
        if current == nil { return PosixTimeZone(standard: standard, daylight: nil) }

        guard let daylightName = parseName() else { return nil }
        var daylightOffset = standard.offset + 3_600
        if let byte = current, byte != UInt8(ascii: ",") {
            guard let west = parseClock(maxHours: 24) else { return nil }
            daylightOffset = -west
        }
        let daylightType = LocalTimeType(offset: daylightOffset, isDaylightTime: true, abbreviation: daylightName)
        var start = Self.defaultStart
        var end = Self.defaultEnd
        if consume(",") {
            guard let parsedStart = parseRule(), consume(","), let parsedEnd = parseRule() else { return nil }
            start = parsedStart
            end = parsedEnd
        }
        guard current == nil else { return nil }
        return PosixTimeZone(standard: standard,
                             daylight: .init(type: daylightType, start: start, end: end))
    }

    /// `<...>` (letters, digits, `+`, `-`) or 3+ letters; returns the name without brackets.
    private mutating func parseName() -> String? {
        let quoted = consume("<")
        let start = position
        while let byte = current, Self.isNameByte(byte, quoted: quoted) { position += 1 }
        let name = bytes[start..<position]
        guard name.count >= 3 else { return nil }
        if quoted && !consume(">") { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, quoted: Bool) -> Bool {
        let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        if isLetter { return true }
        guard quoted else { return false }
        return DecimalText.digitValue(byte) != nil || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// `[+-]h[h][:mm[:ss]]` in seconds (signed), hours at most `maxHours`.
    private mutating func parseClock(maxHours: Int) -> Int? {
        var sign = 1
        if consume("-") { sign = -1 } else { _ = consume("+") }
        guard let hours = parseNumber(maxDigits: maxHours > 99 ? 3 : 2), hours <= maxHours else { return nil }
        var seconds = hours * 3_600
        if consume(":") {
            guard let minutes = parseNumber(maxDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if consume(":") {
                guard let secs = parseNumber(maxDigits: 2), secs < 60 else { return nil }
                seconds += secs
            }
        }
        return sign * seconds
    }

    /// 1 to `maxDigits` decimal digits.
    private mutating func parseNumber(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < maxDigits, let byte = current, let digit = DecimalText.digitValue(byte) {
            value = value * 10 + digit
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    /// `Jn`, `n` or `Mm.w.d`, optionally followed by `/time`.
    private mutating func parseRule() -> TransitionRule? {
        let day: TransitionRule.Day
        if consume("J") {
            guard let n = parseNumber(maxDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianSkippingLeapDay(n)
        } else if consume("M") {
            guard let month = parseNumber(maxDigits: 2), (1...12).contains(month), consume("."),
                  let week = parseNumber(maxDigits: 1), (1...5).contains(week), consume("."),
                  let weekday = parseNumber(maxDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = parseNumber(maxDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBasedDayOfYear(n)
        }
        var time = 7_200
        if consume("/") {
            guard let parsed = parseClock(maxHours: 167) else { return nil }
            time = parsed
        }
        return TransitionRule(day: day, time: time)
    }
}
