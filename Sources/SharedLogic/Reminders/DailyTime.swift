/// A wall-clock time of day that repeats daily and floats with the machine's time zone.
public struct DailyTime: Hashable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) {
        precondition((0..<24).contains(hour) && (0..<60).contains(minute), "invalid time of day")
        self.hour = hour
        self.minute = minute
    }

    /// `09:00`
    public var description: String { twoDigits(hour) + ":" + twoDigits(minute) }
}

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
