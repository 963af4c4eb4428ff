/// Overflow-safe integer helpers used by the calendar and zone code.
enum TimeArithmetic {
    /// `a / b` rounded toward negative infinity (`b > 0`).
    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b < 0) ? q - 1 : q
    }

    /// `a mod b` in `0..<b` (`b > 0`).
    @inline(__always)
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
        let r = a % b
        return r < 0 ? r + b : r
    }

    /// `a + b`, clamped to the `Int64` range instead of trapping.
    @inline(__always)
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if !overflow { return sum }
        return b > 0 ? .max : .min
    }

    /// `a * b`, clamped to the `Int64` range instead of trapping.
    @inline(__always)
    static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        if !overflow { return product }
        return (a < 0) == (b < 0) ? .max : .min
    }

    /// Converts an `Int` to `Int64` (identical on 64-bit platforms, clamped elsewhere).
    @inline(__always)
    static func wide(_ value: Int) -> Int64 {
        Int64(clamping: value)
    }
}
