import SharedLogic

/// The freedesktop notification service (`org.freedesktop.Notifications`) over notif's own
/// D-Bus connection: what it can do, a notification with buttons, and the button pressed. The
/// same connection that sent the notification hears the answer (dunst sends it to the sender
/// alone; others to everyone, hence the match rule). About a millisecond, where `gdbus` and
/// `notify-send` cost several each. Calls carry NO_AUTO_START unless told (`ActivationRule`).
public final class NotificationBus {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let bus = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
    private let connection: DBusConnection
    /// The unique name of the service that accepted the notification: only it may answer.
    private var server: String?

    public init(address: String, deadline: Double) throws(DBusError) {
        connection = try DBusConnection(address: address, deadline: deadline)
    }

    /// `GetCapabilities`. Without `autoStart` the bus answers that nobody owns the service rather
    /// than start a server for it (`ActivationRule` says when it may).
    public func capabilities(autoStart: Bool = true, deadline: Double) throws(DBusError) -> Set<String> {
        let reply = try connection.call(destination: Self.service, path: Self.path, interface: Self.service,
                                        member: "GetCapabilities", autoStart: autoStart, deadline: deadline)
        guard reply.signature == "as" else { throw DBusError("GetCapabilities answered \(reply.signature.debugDescription)") }
        var reader = reply.bodyReader
        return Set(try reader.strings())
    }

    /// `Notify`, with notif's name, the `desktop-entry` hint and normal urgency. Returns the id.
    /// Summary and body are made safe first (`DesktopNotifier.safeSummary`, `safeBody`).
    public func notify(summary: String, body: String, icon: String, actions: [ReminderAction], expireMilliseconds: Int32,
                       autoStart: Bool = true, deadline: Double) throws(DBusError) -> UInt32 {
        if !actions.isEmpty {
            try addMatch("type='signal',sender='\(Self.service)',path='\(Self.path)',interface='\(Self.service)'", deadline: deadline)
            // Who owns the service's name, subscribed to before `Notify`: the bus handles this
            // connection's messages in order, so every change of owner after the service took the
            // notification reaches this connection, even one between `Notify` and its reply.
            try watchOwner(deadline: deadline)
        }
        var writer = DBusWriter()
        writer.string("notif")
        writer.uint32(0)
        writer.string(icon)
        writer.string(DesktopNotifier.safeSummary(summary))
        writer.string(DesktopNotifier.safeBody(body))
        writer.strings(actions.flatMap { [$0.rawValue, $0.label] })
        let hints: [(String, DBusBasic)] = [("desktop-entry", .string(AppIcon.desktopEntry)), ("urgency", .byte(1))]
        writer.array(elementAlignment: 8) { entries in
            for (key, value) in hints {
                entries.pad(to: 8)
                entries.string(key)
                entries.variant(value)
            }
        }
        writer.int32(expireMilliseconds)
        let reply: DBusMessage
        do {
            reply = try connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "Notify",
                                        signature: "susssasa{sv}i", body: writer.bytes, autoStart: autoStart, deadline: deadline)
        } catch where error.name == DBusConnection.timedOut {
            // The service may still take it, late: the answer is kept, and it is not sent again.
            connection.keepAnswer(to: connection.lastSerial)
            unansweredNotify = (connection.lastSerial, !actions.isEmpty)
            throw error
        }
        return try notificationID(reply)
    }

    private func notificationID(_ reply: DBusMessage) throws(DBusError) -> UInt32 {
        guard reply.signature == "u" else { throw DBusError("Notify answered \(reply.signature.debugDescription)") }
        server = reply.sender
        var reader = reply.bodyReader
        return try reader.uint32()
    }

    /// A `Notify` the service did not answer in time (its serial, and whether it had buttons):
    /// the service may still show it, so no other is sent to it. Forgotten when the name's
    /// owner changes (`takeSignals`): a new owner never got it.
    public private(set) var unansweredNotify: (serial: UInt32, buttons: Bool)?

    /// The id of the unanswered `Notify`, when the service has answered it by `deadline`; nil
    /// when it has not. An error answer is thrown (and the call forgotten).
    public func lateNotificationID(deadline: Double) throws(DBusError) -> UInt32? {
        guard let pending = unansweredNotify else { return nil }
        let reply: DBusMessage?
        do {
            reply = try connection.answer(to: pending.serial, deadline: deadline)
        } catch {
            unansweredNotify = nil
            throw error
        }
        guard let reply else {
            connection.keepAnswer(to: pending.serial)
            return nil
        }
        unansweredNotify = nil
        return try notificationID(reply)
    }

    /// Subscribes to the changes of owner of the service's name (a server starting, leaving).
    public func watchOwner(deadline: Double) throws(DBusError) {
        guard !watchingOwner else { return }
        try addMatch("type='signal',sender='\(Self.bus)',path='\(Self.busPath)',interface='\(Self.bus)',member='NameOwnerChanged',"
                     + "arg0='\(Self.service)'", deadline: deadline)
        watchingOwner = true
    }
    private var watchingOwner = false

    /// The systemd user manager's environment on this bus (the `Environment` property of
    /// `org.freedesktop.systemd1.Manager`: what it starts services with, D-Bus activated ones
    /// among them); nil when no manager is on this bus. Never starts one.
    public func managerEnvironment(deadline: Double) -> [String]? {
        var writer = DBusWriter()
        writer.string("org.freedesktop.systemd1.Manager")
        writer.string("Environment")
        guard let reply = try? connection.call(destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
                                               interface: "org.freedesktop.DBus.Properties", member: "Get", signature: "ss",
                                               body: writer.bytes, autoStart: false, deadline: deadline),
              reply.signature == "v" else { return nil }
        var reader = reply.bodyReader
        return try? reader.stringsVariant()
    }

    /// The connection's socket, to wait on among other things (`takeSignals` first).
    public var descriptor: Int32 { connection.descriptor }

    /// Reads every signal that has come, without waiting; whether any said the service's name
    /// changed owner. Throws when the bus connection ended.
    public func takeSignals() throws(DBusError) -> Bool {
        var ownerChanged = false
        while let message = try connection.next(until: 0) {
            if message.sender == Self.bus, message.member == "NameOwnerChanged" { ownerChanged = true }
        }
        if ownerChanged { unansweredNotify = nil }
        return ownerChanged
    }

    private func addMatch(_ rule: String, deadline: Double) throws(DBusError) {
        var writer = DBusWriter()
        writer.string(rule)
        _ = try connection.call(destination: Self.bus, path: Self.busPath, interface: Self.bus, member: "AddMatch", signature: "s",
                                body: writer.bytes, deadline: deadline)
    }

    /// How the wait for a button ended.
    public enum Answer: Equatable, Sendable {
        case action(String)
        /// Closed (dismissed, expired): nothing more can come.
        case closed
        /// The service that showed it lost its name (why, in words): no button can come from it,
        /// and a new owner does not know the notification.
        case serviceLeft(String)
        /// The connection to the bus ended (why, in words).
        case busEnded(String)
        case timedOut
    }

    /// Waits for the button pressed on notification `id`, or its closing, until `deadline`.
    public func answer(for id: UInt32, until deadline: Double) -> Answer {
        while true {
            let message: DBusMessage?
            do {
                message = try connection.next(until: deadline)
            } catch {
                return .busEnded(error.message)
            }
            guard let message else { return .timedOut }
            if let why = Self.departure(in: message, server: server) { return .serviceLeft(why) }
            guard message.interface == Self.service, message.sender == server || server == nil else { continue }
            var reader = message.bodyReader
            switch (message.member, message.signature) {
            case ("ActionInvoked", "us"):
                if let signalled = try? reader.uint32(), signalled == id, let key = try? reader.string() { return .action(key) }
            case ("NotificationClosed", "uu"):
                if let signalled = try? reader.uint32(), signalled == id { return .closed }
            default:
                continue
            }
        }
    }

    /// Why the service that took the notification is gone, when `message` is the bus saying the
    /// name passed from that service to no owner or another one; nil for any other message (a
    /// change between two other owners, queued from before the service answered, among them).
    static func departure(in message: DBusMessage, server: String?) -> String? {
        guard let server, message.sender == Self.bus, message.interface == Self.bus, message.member == "NameOwnerChanged",
              message.signature == "sss" else { return nil }
        var reader = message.bodyReader
        guard let name = try? reader.string(), name == Self.service, let previous = try? reader.string(), previous == server,
              let owner = try? reader.string(), owner != server else { return nil }
        return owner.isEmpty
            ? "the notification service (\(server)) left the session bus"
            : "another notification service (\(owner)) took \(Self.service) over from the one that showed it (\(server))"
    }

    /// `CloseNotification`, best effort (a notification left unanswered for too long).
    public func close(_ id: UInt32, deadline: Double) {
        var writer = DBusWriter()
        writer.uint32(id)
        _ = try? connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "CloseNotification",
                                 signature: "u", body: writer.bytes, deadline: deadline)
    }
}
