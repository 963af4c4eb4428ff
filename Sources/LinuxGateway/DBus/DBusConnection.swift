import Glibc
import Storage
import SharedLogic

/// A connection to a D-Bus bus notif talks to itself: a Unix socket (`unix:path=` or
/// `unix:abstract=`), the EXTERNAL authentication, `Hello`, then method calls and the signals
/// sent to it. Every step has a deadline (monotonic seconds); nothing blocks past it.
final class DBusConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var serial: UInt32 = 0
    /// Messages read while waiting for a reply (signals), handed out by `next`.
    private var queued: [DBusMessage] = []
    /// The calls whose answer is still wanted after their deadline (`keepAnswer`), and the
    /// answers that came for them meanwhile.
    private var awaited: Set<UInt32> = []
    private var lateAnswers: [UInt32: DBusMessage] = [:]
    /// This connection's unique name on the bus.
    private(set) var uniqueName = ""

    init(address: String, deadline: Double) throws(DBusError) {
        guard let socket = BusPeer.socket(of: address) else { throw DBusError("the bus address \(address.debugDescription) names no local socket") }
        let (connected, code) = UnixSocket.connect(socket.name, abstract: socket.abstract)
        guard code == 0 else {
            if connected >= 0 { close(connected) }
            throw DBusError("cannot connect to \(socket.name): \(Posix.message(for: code))")
        }
        fd = connected
        // The one rule for a bus (`BusPeer`), asked of the socket connected: the user's or root's.
        if let peer = UnixSocket.peer(of: fd), !BusPeer.mayServe(peer.uid, uid: geteuid()) {
            close(fd)
            throw DBusError(BusPeer.served(by: peer.uid), name: BusPeer.notUsed)
        }
        do {
            try authenticate(guid: BusPeer.guid(of: address), deadline: deadline)
            let hello = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                 member: "Hello", deadline: deadline)
            var reader = hello.bodyReader
            uniqueName = try reader.string()
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The EXTERNAL mechanism: this process's uid, as the kernel tells the bus anyway. The bus
    /// answers with its guid, which must be the one the address names (if it names one): another
    /// bus on the same socket path is not the session the address was made for.
    private func authenticate(guid expected: String?, deadline: Double) throws(DBusError) {
        let uid = Hex.of(bytes: String(getuid()).utf8)
        try write([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8), deadline: deadline)
        var line: [UInt8] = []
        while !line.suffix(2).elementsEqual([13, 10]) {
            if buffer.isEmpty { try fill(deadline: deadline) }
            line.append(buffer.removeFirst())
            guard line.count < 4096 else { throw DBusError("the bus said too much while authenticating") }
        }
        let answer = String(decoding: line, as: UTF8.self)
        guard answer.hasPrefix("OK ") else { throw DBusError("the bus refused notif: \(answer.dropLast(2))") }
        let guid = String(decoding: line.dropFirst(3).dropLast(2), as: UTF8.self)   // bytes: "\r\n" is one Character
        if let expected, guid.lowercased() != expected.lowercased() {
            throw DBusError("it is another bus than the address names (its guid is \(guid), not \(expected))", name: BusPeer.notUsed)
        }
        try write(Array("BEGIN\r\n".utf8), deadline: deadline)
    }

    /// Calls a method and waits for its reply; an error reply is thrown with its name and text.
    /// - Parameter autoStart: whether the bus may start a program to own `destination`.
    func call(destination: String, path: String, interface: String, member: String, signature: String = "",
              body: [UInt8] = [], autoStart: Bool = true, deadline: Double) throws(DBusError) -> DBusMessage {
        serial += 1
        let mine = serial
        try write(DBusMessage.call(serial: mine, destination: destination, path: path, interface: interface, member: member,
                                   signature: signature, body: body, autoStart: autoStart), deadline: deadline)
        guard let answer = try answer(to: mine, deadline: deadline) else { throw DBusError("the bus did not answer in time", name: Self.timedOut) }
        return answer
    }

    /// The serial of the last call made.
    var lastSerial: UInt32 { serial }

    /// Keeps the answer to call `serial` when it comes after its deadline, for `answer(to:deadline:)`.
    func keepAnswer(to serial: UInt32) { awaited.insert(serial) }

    /// The answer to call `serial` (an error answer is thrown), or nil when `deadline` passes first.
    func answer(to serial: UInt32, deadline: Double) throws(DBusError) -> DBusMessage? {
        var message = lateAnswers.removeValue(forKey: serial)
        while message == nil {
            let read: DBusMessage
            do {
                read = try self.read(deadline: deadline)
            } catch where error.name == Self.timedOut {
                return nil
            }
            if read.kind == .signal { queued.append(read) }
            guard read.kind == .reply || read.kind == .error, let replySerial = read.replySerial else { continue }
            if replySerial == serial { message = read } else if awaited.contains(replySerial) { lateAnswers[replySerial] = read }
        }
        awaited.remove(serial)
        guard let message else { return nil }
        if message.kind == .error {
            var reader = message.bodyReader
            let text = message.signature.hasPrefix("s") ? ((try? reader.string()) ?? "") : ""
            throw DBusError(text.isEmpty ? message.errorName ?? "error" : text, name: message.errorName)
        }
        return message
    }

    /// The next signal sent to this connection, or nil when `deadline` passes first.
    func next(until deadline: Double) throws(DBusError) -> DBusMessage? {
        while true {
            if !queued.isEmpty { return queued.removeFirst() }
            do {
                let message = try read(deadline: deadline)
                if message.kind == .signal { return message }
                if let replySerial = message.replySerial, awaited.contains(replySerial) { lateAnswers[replySerial] = message }
            } catch where error.name == Self.timedOut {
                return nil
            }
        }
    }

    static let timedOut = "notif.TimedOut"

    /// The socket, for a `poll` that waits on this connection among other things. Read what is
    /// there with `next(until:)` before polling again: a message may already be buffered.
    var descriptor: Int32 { fd }

    /// One whole message from the socket.
    private func read(deadline: Double) throws(DBusError) -> DBusMessage {
        while true {
            if let length = try DBusMessage.length(of: buffer[...]), buffer.count >= length {
                let bytes = Array(buffer[0..<length])
                buffer.removeFirst(length)
                return try DBusMessage(parsing: bytes)
            }
            try fill(deadline: deadline)
        }
    }

    private func fill(deadline: Double) throws(DBusError) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return
            }
            if count == 0 { throw DBusError("the bus closed the connection") }
            guard errno == EAGAIN || errno == EINTR else { throw DBusError("reading from the bus: \(Posix.message(for: errno))") }
            try wait(for: Int16(POLLIN), deadline: deadline)
        }
    }

    private func write(_ bytes: [UInt8], deadline: Double) throws(DBusError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 { offset += count; continue }
            guard count < 0, errno == EAGAIN || errno == EINTR else { throw DBusError("writing to the bus: \(Posix.message(for: errno))") }
            try wait(for: Int16(POLLOUT), deadline: deadline)
        }
    }

    private func wait(for events: Int16, deadline: Double) throws(DBusError) {
        let remaining = deadline - SystemClock.monotonicNow()
        guard remaining > 0 else { throw DBusError("the bus did not answer in time", name: Self.timedOut) }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, Int32(min(remaining, 86_400) * 1000) + 1)
        if ready < 0 && errno != EINTR { throw DBusError("waiting for the bus: \(Posix.message(for: errno))") }
    }
}
