import Glibc
import SharedLogic

/// The machine's real-time clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Instant(seconds: Int64(ts.tv_sec))
    }

    /// Seconds on the monotonic clock, for deadlines: a change of the wall clock does not move it.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

extension Instant {
    /// `20261129T185100Z`: a UTC stamp for file names.
    public var compactUTCStamp: String {
        let t = ZoneRules.utc.localDateTime(of: self)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return pad(t.date.year, 4) + pad(t.date.month, 2) + pad(t.date.day, 2) + "T"
            + pad(t.hour, 2) + pad(t.minute, 2) + pad(t.second, 2) + "Z"
    }
}
