/// A short, stable fingerprint of a text: FNV-1a over its UTF-8 bytes, folded to 32 bits and
/// written as 8 lowercase hex digits. Not a secret and not collision-proof against an
/// adversary: it tells a handful of one user's own configurations apart.
public enum ShortHash {
    public static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        return Hex.of(folded, width: 8)
    }

    /// Whether `text` is a fingerprint as `of` writes it.
    public static func isHash(_ text: Substring) -> Bool {
        text.count == 8 && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}
