/// Small helpers for fixed-width decimal text, avoiding any Foundation formatter.
enum DecimalText {
    /// `value` in decimal, left-padded with zeros to at least `width` digits (sign before the zeros).
    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }

    /// The value of exactly `count` ASCII digits at the start of `bytes`, or nil.
    static func fixedDigits(_ bytes: ArraySlice<UInt8>, count: Int) -> Int? {
        guard bytes.count >= count, count > 0, count <= 18 else { return nil }
        var value = 0
        for byte in bytes.prefix(count) {
            guard let digit = digitValue(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
