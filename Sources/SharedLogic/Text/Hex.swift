/// Lower-case hexadecimal: bytes as two digits each (tokens, digests, D-Bus authentication), and
/// whole numbers padded with zeros to a width (escapes such as `\u001b`, fingerprints).
public enum Hex {
    /// Two digits per byte, in order.
    public static func of(bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes { text += of(byte, width: 2) }
        return text
    }

    /// `value` (not negative) in base 16, with leading zeros up to `width` digits.
    public static func of(_ value: some BinaryInteger, width: Int = 1) -> String {
        precondition(value >= 0, "Hex.of takes no negative number")
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
