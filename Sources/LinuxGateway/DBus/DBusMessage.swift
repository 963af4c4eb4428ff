/// One D-Bus message: its kind, serial and header fields, and its body still marshalled (with
/// its byte order), read with `bodyReader`.
struct DBusMessage {
    enum Kind: UInt8 { case call = 1, reply = 2, error = 3, signal = 4 }

    var kind: Kind
    var serial: UInt32
    var replySerial: UInt32?
    var path: String?
    var interface: String?
    var member: String?
    var errorName: String?
    var destination: String?
    var sender: String?
    var signature = ""
    var body: [UInt8] = []
    var littleEndian = true

    var bodyReader: DBusReader { DBusReader(body, littleEndian: littleEndian) }

    /// The wire bytes of a message notif sends (a call: body already marshalled from offset 0).
    /// - Parameter autoStart: false sets NO_AUTO_START: the bus answers that nobody owns the
    ///   destination instead of starting a program for it (D-Bus activation).
    static func call(serial: UInt32, destination: String, path: String, interface: String, member: String,
                     signature: String = "", body: [UInt8] = [], noReply: Bool = false, autoStart: Bool = true) -> [UInt8] {
        var writer = DBusWriter()
        writer.byte(UInt8(ascii: "l"))
        writer.byte(Kind.call.rawValue)
        writer.byte((noReply ? 0x1 : 0) | (autoStart ? 0 : 0x2))
        writer.byte(1)
        writer.uint32(UInt32(body.count))
        writer.uint32(serial)
        var fields: [(UInt8, DBusBasic)] = [(1, .objectPath(path)), (2, .string(interface)), (3, .string(member)), (6, .string(destination))]
        if !signature.isEmpty { fields.append((8, .signature(signature))) }
        writer.array(elementAlignment: 8) { fieldsWriter in
            for (code, value) in fields {
                fieldsWriter.pad(to: 8)
                fieldsWriter.byte(code)
                fieldsWriter.variant(value)
            }
        }
        writer.pad(to: 8)
        return writer.bytes + body
    }

    /// The length of the whole message at the start of `bytes`, once its fixed header is there.
    static func length(of bytes: ArraySlice<UInt8>) throws(DBusError) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let start = bytes.startIndex
        guard bytes[start] == UInt8(ascii: "l") || bytes[start] == UInt8(ascii: "B") else { throw DBusError("the bus sent something that is not D-Bus") }
        var reader = DBusReader(Array(bytes.prefix(16)), littleEndian: bytes[start] == UInt8(ascii: "l"))
        _ = try reader.uint32()
        let bodyLength = Int(try reader.uint32())
        _ = try reader.uint32()
        let fieldsLength = Int(try reader.uint32())
        let headerEnd = 16 + fieldsLength
        let total = (headerEnd + 7) / 8 * 8 + bodyLength
        guard total <= 128 << 20 else { throw DBusError("the bus sent a message over 128 MiB") }
        return total
    }

    /// Parses one whole message.
    init(parsing bytes: [UInt8]) throws(DBusError) {
        guard bytes.count >= 16, let kind = Kind(rawValue: bytes[1]) else { throw DBusError("a D-Bus message of an unknown kind") }
        littleEndian = bytes[0] == UInt8(ascii: "l")
        self.kind = kind
        var reader = DBusReader(bytes, littleEndian: littleEndian)
        _ = try reader.uint32()
        let bodyLength = Int(try reader.uint32())
        serial = try reader.uint32()
        let fieldsLength = Int(try reader.uint32())
        let fieldsEnd = 16 + fieldsLength
        guard fieldsEnd <= bytes.count else { throw DBusError("a D-Bus header runs past its message") }
        // The fields, an array of (code, variant) structs, start at 16 (8-aligned from the start).
        var cursor = DBusReader(bytes, littleEndian: littleEndian, from: 0, to: fieldsEnd)
        try cursor.skip(to: 16)
        while !cursor.atEnd {
            try cursor.align(8)
            let code = try cursor.byte()
            let value = try cursor.variant()
            switch (code, value) {
            case (1, .objectPath(let v)?): path = v
            case (2, .string(let v)?): interface = v
            case (3, .string(let v)?): member = v
            case (4, .string(let v)?): errorName = v
            case (5, .uint32(let v)?): replySerial = v
            case (6, .string(let v)?): destination = v
            case (7, .string(let v)?): sender = v
            case (8, .signature(let v)?): signature = v
            default: break
            }
        }
        let bodyStart = (fieldsEnd + 7) / 8 * 8
        guard bodyStart + bodyLength <= bytes.count else { throw DBusError("a D-Bus body runs past its message") }
        body = Array(bytes[bodyStart..<(bodyStart + bodyLength)])
    }
}

extension DBusReader {
    /// Moves to `position` (forward only).
    mutating func skip(to position: Int) throws(DBusError) {
        guard position >= offset, position <= end else { throw DBusError("a D-Bus message ended early") }
        while offset < position { _ = try byte() }
    }
}
