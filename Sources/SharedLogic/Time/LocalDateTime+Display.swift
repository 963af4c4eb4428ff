extension LocalDateTime {
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Compact English form for lists: `Mon 30 Nov 09:00` (day not padded, 24-hour clock).
    /// The date is normalised first, so an out-of-range month or day still names a real date.
    public var shortDisplay: String {
        let normal = CivilDate(daysSinceEpoch: date.daysSinceEpoch)
        let weekday = Self.weekdayNames[normal.weekday]
        let month = Self.monthNames[normal.month - 1]
        return "\(weekday) \(normal.day) \(month) "
            + DecimalText.padded(hour, width: 2) + ":" + DecimalText.padded(minute, width: 2)
    }
}
