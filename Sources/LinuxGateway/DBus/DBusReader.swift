/// Reads D-Bus wire format in either byte order; alignment counts from `base` (a message's
/// start, or its body's). Every read checks bounds: a short or malformed message is an error.
struct DBusReader {
    let bytes: [UInt8]
    let littleEndian: Bool
    let base: Int
    let end: Int
    private(set) var offset: Int

    init(_ bytes: [UInt8], littleEndian: Bool, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        base = start
        offset = start
        self.end = end ?? bytes.count
    }

    var atEnd: Bool { offset >= end }

    mutating func align(_ alignment: Int) throws(DBusError) {
        let relative = offset - base
        let padded = (relative + alignment - 1) / alignment * alignment
        guard base + padded <= end else { throw DBusError("a D-Bus message ended early") }
        offset = base + padded
    }

    mutating func byte() throws(DBusError) -> UInt8 {
        guard offset < end else { throw DBusError("a D-Bus message ended early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() throws(DBusError) -> UInt32 {
        try align(4)
        guard offset + 4 <= end else { throw DBusError("a D-Bus message ended early") }
        let b = bytes[offset..<(offset + 4)].map(UInt32.init)
        offset += 4
        return littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
    }

    mutating func string() throws(DBusError) -> String {
        let length = Int(try uint32())
        guard length >= 0, offset + length + 1 <= end else { throw DBusError("a D-Bus string runs past its message") }
        defer { offset += length + 1 }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func signature() throws(DBusError) -> String {
        let length = Int(try byte())
        guard offset + length + 1 <= end else { throw DBusError("a D-Bus signature runs past its message") }
        defer { offset += length + 1 }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    /// `as`.
    mutating func strings() throws(DBusError) -> [String] {
        let length = Int(try uint32())
        try align(4)
        let stop = offset + length
        guard stop <= end else { throw DBusError("a D-Bus array runs past its message") }
        var values: [String] = []
        while offset < stop { values.append(try string()) }
        return values
    }

    /// A variant holding an array of strings (`v` of `as`, as a property of that type comes).
    mutating func stringsVariant() throws(DBusError) -> [String] {
        let signature = try signature()
        guard signature == "as" else { throw DBusError("a D-Bus variant of \(signature.debugDescription) where strings were expected") }
        return try strings()
    }

    /// A variant holding one basic value (what header fields hold); nil for other kinds.
    mutating func variant() throws(DBusError) -> DBusBasic? {
        switch try signature() {
        case "y": return .byte(try byte())
        case "u": return .uint32(try uint32())
        case "i": return .int32(Int32(bitPattern: try uint32()))
        case "s": return .string(try string())
        case "o": return .objectPath(try string())
        case "g": return .signature(try signature())
        default: throw DBusError("a D-Bus header field of a kind notif does not read")
        }
    }
}

/// A D-Bus failure: the connection, the wire format, or an error the peer answered.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The error name a peer answered with (`org.freedesktop.DBus.Error.ServiceUnknown`), if any.
    public let name: String?
    public init(_ message: String, name: String? = nil) {
        self.message = message
        self.name = name
    }
    public var description: String { message }
}
