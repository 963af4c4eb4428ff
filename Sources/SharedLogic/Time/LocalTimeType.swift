/// One kind of local time a zone can be in: its UTC offset, abbreviation and whether it is daylight time.
struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UTC.
    var offset: Int
    var isDaylightTime: Bool
    var abbreviation: String

    static let utc = LocalTimeType(offset: 0, isDaylightTime: false, abbreviation: "UTC")

    /// The widest UTC offsets accepted from any source: RFC 8536 recommends −25:59:59 … +25:59:59.
    static let plausibleOffsets = -93_599...93_599
}
