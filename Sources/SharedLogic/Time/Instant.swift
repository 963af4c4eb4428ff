/// A point in time: whole seconds since 1970-01-01T00:00:00Z (leap seconds ignored, as POSIX does).
public struct Instant: Comparable, Hashable, Sendable {
    public var seconds: Int64
    public init(seconds: Int64) { self.seconds = seconds }
    public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }
    public func adding(seconds s: Int64) -> Instant { Instant(seconds: seconds + s) }
}

/// Where "now" comes from; injected so every rule can be tested with a fixed clock.
public protocol WallClock: Sendable {
    func now() -> Instant
}
