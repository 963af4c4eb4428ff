/// The `YYYY-MM-DD` text form of `CivilDate`.
///
/// Years 0...9999 use exactly four digits. Other years (which `description` can produce) use
/// a leading `-` and/or more digits, e.g. `-0044-03-15` or `12345-01-01`; `parse` accepts those
/// too, so `description` always round-trips, but never a `+` sign or a superfluous leading zero.
enum CivilDateText {
    static func format(_ date: CivilDate) -> String {
        DecimalText.padded(date.year, width: 4) + "-"
            + DecimalText.padded(date.month, width: 2) + "-"
            + DecimalText.padded(date.day, width: 2)
    }

    static func parse(_ text: ArraySlice<UInt8>) -> CivilDate? {
        var rest = text
        let negative = rest.first == UInt8(ascii: "-")
        if negative { rest = rest.dropFirst() }
        // The year runs up to the '-' that is followed by `MM-DD` (the last 6 bytes).
        guard rest.count >= 4 + 6 else { return nil }
        let yearDigits = rest.count - 6
        guard yearDigits <= 15 else { return nil }
        if yearDigits > 4 && rest.first == UInt8(ascii: "0") { return nil }
        guard let magnitude = DecimalText.fixedDigits(rest, count: yearDigits) else { return nil }
        rest = rest.dropFirst(yearDigits)
        guard rest.first == UInt8(ascii: "-"),
              let month = DecimalText.fixedDigits(rest.dropFirst(), count: 2),
              rest.dropFirst(3).first == UInt8(ascii: "-"),
              let day = DecimalText.fixedDigits(rest.dropFirst(4), count: 2)
        else { return nil }
        if negative && magnitude == 0 { return nil }
        let year = negative ? -magnitude : magnitude
        guard (1...12).contains(month),
              (1...GregorianCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }
}
