@testable import LinuxGateway
import Testing

/// Which changes of the notification service's owner end the wait for a button: only the name
/// passing from the service that showed the notification to no owner or another one.
@Suite struct NotificationBusTests {
    let showing = ":1.7"

    /// `NameOwnerChanged(name, previous, owner)` as the bus sends it.
    func ownerChanged(_ name: String, from previous: String, to owner: String, sender: String = NotificationBus.bus) throws -> DBusMessage {
        var body = DBusWriter()
        body.string(name)
        body.string(previous)
        body.string(owner)
        var message = try DBusMessage(parsing: DBusMessage.call(serial: 1, destination: ":1.9", path: "/org/freedesktop/DBus",
                                                                interface: NotificationBus.bus, member: "NameOwnerChanged",
                                                                signature: "sss", body: body.bytes))
        message.kind = .signal
        message.sender = sender
        return message
    }

    @Test func theServiceLeavingOrReplacedEndsTheWait() throws {
        let left = NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: showing, to: ""), server: showing)
        #expect(left == "the notification service (:1.7) left the session bus")
        let replaced = NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: showing, to: ":1.8"), server: showing)
        #expect(replaced == "another notification service (:1.8) took org.freedesktop.Notifications over from the one that showed it (:1.7)")
    }

    /// A change before the service that showed it took the name (an activated server handing over
    /// to the desktop's own at login), queued while `Notify` was answered, ends nothing.
    @Test func aChangeBetweenTwoOtherOwnersEndsNothing() throws {
        #expect(NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: "", to: ":1.5"), server: showing) == nil)
        #expect(NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: ":1.5", to: showing), server: showing) == nil)
    }

    @Test func otherNamesAndSendersEndNothing() throws {
        #expect(NotificationBus.departure(in: try ownerChanged("org.example.Other", from: showing, to: ""), server: showing) == nil)
        #expect(NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: showing, to: "", sender: ":1.66"),
                                          server: showing) == nil, "only the bus itself says who owns a name")
        #expect(NotificationBus.departure(in: try ownerChanged(NotificationBus.service, from: showing, to: ""), server: nil) == nil)
    }
}
