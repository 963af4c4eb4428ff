/// Bounds-checked big-endian reading of a byte array; every read fails cleanly past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func take(_ count: Int, _ what: String) throws(ZoneRulesError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw ZoneRulesError("truncated data: \(what)") }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func skip(_ count: Int, _ what: String) throws(ZoneRulesError) {
        _ = try take(count, what)
    }

    mutating func uint8(_ what: String) throws(ZoneRulesError) -> UInt8 {
        try take(1, what).first!
    }

    mutating func uint32(_ what: String) throws(ZoneRulesError) -> UInt32 {
        UInt32(truncatingIfNeeded: try bigEndian(4, what))
    }

    mutating func int32(_ what: String) throws(ZoneRulesError) -> Int32 {
        Int32(bitPattern: try uint32(what))
    }

    mutating func int64(_ what: String) throws(ZoneRulesError) -> Int64 {
        Int64(bitPattern: try bigEndian(8, what))
    }

    private mutating func bigEndian(_ count: Int, _ what: String) throws(ZoneRulesError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try take(count, what) { value = value << 8 | UInt64(byte) }
        return value
    }
}
