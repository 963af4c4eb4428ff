import SharedLogic

/// The freedesktop notification service (`org.freedesktop.Notifications`) over notif's own
/// D-Bus connection: what it can do, a notification with buttons, and the button pressed. The
/// same connection that sent the notification hears the answer (dunst sends it to the sender
/// alone; others to everyone, hence the match rule). About a millisecond, where `gdbus` and
/// `notify-send` cost several each.
public final class NotificationBus {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    private let connection: DBusConnection
    /// The unique name of the service that accepted the notification: only it may answer.
    private var server: String?

    public init(address: String, deadline: Double) throws(DBusError) {
        connection = try DBusConnection(address: address, deadline: deadline)
    }

    /// `GetCapabilities`.
    public func capabilities(deadline: Double) throws(DBusError) -> Set<String> {
        let reply = try connection.call(destination: Self.service, path: Self.path, interface: Self.service,
                                        member: "GetCapabilities", deadline: deadline)
        guard reply.signature == "as" else { throw DBusError("GetCapabilities answered \(reply.signature.debugDescription)") }
        var reader = reply.bodyReader
        return Set(try reader.strings())
    }

    /// `Notify`, with notif's name, the `desktop-entry` hint and normal urgency. Returns the id.
    /// Summary and body are made safe as for notify-send (`DesktopNotifier.safeSummary`, `safeBody`).
    public func notify(summary: String, body: String, icon: String, actions: [ReminderAction], expireMilliseconds: Int32,
                       deadline: Double) throws(DBusError) -> UInt32 {
        if !actions.isEmpty {
            var rule = DBusWriter()
            rule.string("type='signal',sender='\(Self.service)',path='\(Self.path)',interface='\(Self.service)'")
            _ = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                    member: "AddMatch", signature: "s", body: rule.bytes, deadline: deadline)
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
        let reply = try connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "Notify",
                                        signature: "susssasa{sv}i", body: writer.bytes, deadline: deadline)
        guard reply.signature == "u" else { throw DBusError("Notify answered \(reply.signature.debugDescription)") }
        server = reply.sender
        var reader = reply.bodyReader
        return try reader.uint32()
    }

    /// How the wait for a button ended.
    public enum Answer: Equatable, Sendable {
        case action(String)
        /// Closed (dismissed, expired) or the service went away: nothing more can come.
        case closed
        case timedOut
    }

    /// Waits for the button pressed on notification `id`, or its closing, until `deadline`.
    public func answer(for id: UInt32, until deadline: Double) -> Answer {
        while true {
            let message: DBusMessage?
            do {
                message = try connection.next(until: deadline)
            } catch {
                return .closed
            }
            guard let message else { return .timedOut }
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

    /// `CloseNotification`, best effort (a notification left unanswered for too long).
    public func close(_ id: UInt32, deadline: Double) {
        var writer = DBusWriter()
        writer.uint32(id)
        _ = try? connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "CloseNotification",
                                 signature: "u", body: writer.bytes, deadline: deadline)
    }
}
