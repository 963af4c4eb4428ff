import Foundation
import Testing
import Storage
@testable import LinuxGateway

/// notif's own D-Bus client: the wire format both ways, and a real bus (a private dbus-daemon).
@Suite struct DBusTests {
    @Test func aCallIsWrittenAsTheSpecificationSaysAndReadsBack() throws {
        var body = DBusWriter()
        body.string("notif")
        body.uint32(0)
        body.strings(["turn-off", "Turn off"])
        body.array(elementAlignment: 8) { entries in
            entries.pad(to: 8)
            entries.string("urgency")
            entries.variant(.byte(1))
        }
        body.int32(-1)
        let bytes = DBusMessage.call(serial: 7, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                     interface: "org.freedesktop.Notifications", member: "Notify", signature: "suasa{sv}i", body: body.bytes)
        // Fixed header: little-endian, a method call, version 1, the body's length, the serial.
        #expect(Array(bytes.prefix(12)) == [0x6C, 1, 0, 1] + le(UInt32(body.bytes.count)) + le(7))
        #expect(try DBusMessage.length(of: bytes[...]) == bytes.count)
        let message = try DBusMessage(parsing: bytes)
        #expect(message.kind == .call && message.serial == 7 && message.member == "Notify" && message.signature == "suasa{sv}i")
        #expect(message.path == "/org/freedesktop/Notifications" && message.destination == "org.freedesktop.Notifications")
        var reader = message.bodyReader
        #expect(try reader.string() == "notif" && reader.uint32() == 0 && reader.strings() == ["turn-off", "Turn off"])
        // "notif" 0…9, 0 at 12, the array's length at 16, "turn-off" at 20, "Turn off" at 36 to 49;
        // the dictionary's length at 52, its one entry at 56 ("urgency", then <byte 1>) to 72.
        #expect(Array(body.bytes[52..<56]) == le(16) && body.bytes[68..<72] == [1, UInt8(ascii: "y"), 0, 1])
    }

    @Test func aBigEndianSignalIsRead() throws {
        // ActionInvoked(7, "settings") as a big-endian peer would send it.
        var fields: [UInt8] = []
        func pad8() { while fields.count % 8 != 0 { fields.append(0) } }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func field(_ code: UInt8, _ sig: Character, _ text: String) {
            pad8()
            fields += [code, 1, UInt8(sig.asciiValue!), 0]
            if sig == "g" { fields += [UInt8(text.utf8.count)] + Array(text.utf8) + [0] } else { fields += be(UInt32(text.utf8.count)) + Array(text.utf8) + [0] }
        }
        field(1, "o", "/org/freedesktop/Notifications")
        field(2, "s", "org.freedesktop.Notifications")
        field(3, "s", "ActionInvoked")
        field(8, "g", "us")
        let body = be(7) + be(8) + Array("settings".utf8) + [0]
        var bytes: [UInt8] = [UInt8(ascii: "B"), 4, 0, 1] + be(UInt32(body.count)) + be(3) + be(UInt32(fields.count)) + fields
        while bytes.count % 8 != 0 { bytes.append(0) }
        bytes += body
        #expect(try DBusMessage.length(of: bytes[...]) == bytes.count)
        let message = try DBusMessage(parsing: bytes)
        var reader = message.bodyReader
        #expect(message.kind == .signal && message.member == "ActionInvoked" && message.signature == "us")
        #expect(try reader.uint32() == 7 && reader.string() == "settings")
    }

    @Test func aShortOrForeignMessageIsAnErrorNotACrash() {
        #expect(throws: DBusError.self) { try DBusMessage.length(of: Array("HTTP/1.1 200 OK\r\n\r\n".utf8)[...]) }
        var truncated = DBusMessage.call(serial: 1, destination: "a.b", path: "/", interface: "a.b", member: "M", signature: "s", body: [200, 0, 0, 0])
        truncated.removeLast(2)
        #expect(throws: DBusError.self) {
            var reader = try DBusMessage(parsing: truncated).bodyReader
            _ = try reader.string()
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aRealBusAnswersCallsAndErrors() throws {
        let bus = try PrivateBus()
        let deadline = SystemClock.monotonicNow() + 5
        let connection = try DBusConnection(address: bus.address, deadline: deadline)
        #expect(connection.uniqueName.hasPrefix(":1."))
        let names = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                        member: "ListNames", deadline: deadline)
        var reader = names.bodyReader
        #expect(try reader.strings().contains(connection.uniqueName))
        var argument = DBusWriter()
        argument.string("org.example.Nobody")
        do {
            _ = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                    member: "GetNameOwner", signature: "s", body: argument.bytes, deadline: deadline)
            Issue.record("no error for a name nobody owns")
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.NameHasNoOwner", "\(error)")
        }
        // The bus told this connection it got its name: a signal, kept for `next`.
        let signal = try connection.next(until: SystemClock.monotonicNow() + 2)
        #expect(signal?.member == "NameAcquired")
        #expect(try connection.next(until: SystemClock.monotonicNow() + 0.2) == nil)
        // NO_AUTO_START: the bus says nobody owns the name at once, and starts nothing (its
        // standard service directories may well hold a notification server's activation file).
        let started = SystemClock.monotonicNow()
        do {
            _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                    interface: "org.freedesktop.Notifications", member: "GetCapabilities", autoStart: false, deadline: deadline)
            Issue.record("a notification service answered on a bare bus")
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.NameHasNoOwner", "\(error)")
            #expect(DesktopNotifier.describe(error, autoStart: false).hasPrefix("no notification service runs"))
        }
        #expect(SystemClock.monotonicNow() - started < 1)
        // No manager on this bus.
        #expect(try NotificationBus(address: bus.address, deadline: deadline).managerEnvironment(deadline: deadline) == nil)
    }

    func le(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
}

/// A dbus-daemon of its own for one test, stopped when released.
final class PrivateBus {
    let address: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw TestFailure("dbus-daemon printed no address") }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
