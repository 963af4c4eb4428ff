/// Writes D-Bus wire format, little-endian, with the specification's alignment (offsets count
/// from the start of what is written: a message's header, or its body, which starts 8-aligned).
struct DBusWriter {
    private(set) var bytes: [UInt8] = []

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    /// `s` and `o`: length, UTF-8 bytes, NUL.
    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        uint32(UInt32(utf8.count))
        bytes += utf8
        bytes.append(0)
    }

    /// `g`: one byte of length, the signature, NUL.
    mutating func signature(_ value: String) {
        let utf8 = Array(value.utf8)
        bytes.append(UInt8(utf8.count))
        bytes += utf8
        bytes.append(0)
    }

    /// An array: its byte length, padding to the elements' alignment, the elements.
    mutating func array(elementAlignment: Int, _ elements: (inout DBusWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        pad(to: elementAlignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { for (i, byte) in $0.enumerated() { bytes[lengthAt + i] = byte } }
    }

    /// `as`.
    mutating func strings(_ values: [String]) {
        array(elementAlignment: 4) { writer in for value in values { writer.string(value) } }
    }

    /// A variant holding one basic value.
    mutating func variant(_ value: DBusBasic) {
        signature(value.signature)
        value.write(to: &self)
    }
}

/// The few basic values notif sends in variants (header fields, notification hints).
enum DBusBasic: Equatable {
    case byte(UInt8), uint32(UInt32), int32(Int32), string(String), objectPath(String), signature(String)

    var signature: String {
        switch self {
        case .byte: return "y"
        case .uint32: return "u"
        case .int32: return "i"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        }
    }

    func write(to writer: inout DBusWriter) {
        switch self {
        case .byte(let v): writer.byte(v)
        case .uint32(let v): writer.uint32(v)
        case .int32(let v): writer.int32(v)
        case .string(let v), .objectPath(let v): writer.string(v)
        case .signature(let v): writer.signature(v)
        }
    }
}
