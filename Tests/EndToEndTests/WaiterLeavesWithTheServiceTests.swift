import Foundation
import Testing
import TestSupport

/// The waiter for a reminder's buttons ends as soon as no button can come: when the notification
/// service that showed the reminder leaves the session bus (killed, crashed), when another
/// service takes its name over (it does not know the notification), even right after `Notify`,
/// and when the bus connection itself ends. Each time, why is in the delivery log.
extension ReminderActionsTests {
    static let service = "org.freedesktop.Notifications"

    /// The waiters started for this sandbox's HOME.
    func waiters(_ sandbox: Sandbox) -> [pid_t] {
        Waiters.find(DetachedActionWaiterName.command, home: sandbox.path + "/home")
    }

    /// The one line of `notif history` the waiter's end wrote ("" when there is none).
    func endOfWait(_ sandbox: Sandbox, _ env: [String: String]) throws -> String {
        let history = try sandbox.notif(["history"], env)
        return history.stdout.split(separator: "\n").first { $0.contains("skipped (button)") }.map(String.init) ?? ""
    }

    @Test(.enabled(if: isRoot, "needs root for a throwaway user"), .hangGuard)
    func theWaiterEndsWhenDunstIsKilledAndTheBusStays() throws {
        let user = try TestUser.make("notif-tr14-gone")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display, busOutlivesDunst: true)
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "TZ": ZoneShift.whereItIs(9, 5)]) { $1 }
        #expect(try user.run([binary, "permission", "grant"], env).status == 0)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        try user.entriesFromYesterday()
        let deliver = try user.run([binary, "deliver", "tips-and-updates"], env)
        #expect(deliver.status == 0 && deliver.stdout.contains("with Turn off and Settings"), "\(deliver)")
        #expect(Waiters.find(DetachedActionWaiterName.command, uid: user.uid).count == 1, "the waiter waits while dunst shows it")

        // dunst dies (as in a crash: no NotificationClosed), the session bus goes on.
        let dunst = try #require(try session.owner(of: Self.service), "dunst owns no name")
        #expect(kill(dunst, SIGKILL) == 0)
        #expect(waitUntil(30) { Waiters.find(DetachedActionWaiterName.command, uid: user.uid).isEmpty }, "the waiter outlived dunst")
        #expect(try busOwner(of: "org.freedesktop.DBus", onBus: session.busAddress, as: user) != nil, "the bus ended too: not the case under test")
        let history = try user.run([binary, "history"], env)
        #expect(history.stdout.contains("tips-and-updates  skipped (button): the waiter for the buttons ended: the notification service (:1.")
                && history.stdout.contains(") left the session bus before a button was pressed"), "\(history)")
        withExtendedLifetime((display, session)) {}
    }

    @Test(.hangGuard)
    func theWaiterEndsWhenAnotherServiceTakesTheNameOver() throws {
        let sandbox = Sandbox()
        let first = try FakeNotificationService(config: ["allow_replacement": true])
        let env = try prepared(sandbox, first)
        let deliver = try sandbox.notif(["deliver", "tips-and-updates"], env)
        #expect(deliver.stdout.contains("with Turn off and Settings"), "\(deliver)")
        #expect(waiters(sandbox).count == 1, "the waiter waits while the service shows it")

        let second = try FakeNotificationService(config: ["replace": true], bus: first.busAddress)
        #expect(waitUntil(30) { waiters(sandbox).isEmpty }, "the waiter stayed after another service took the name over")
        let line = try endOfWait(sandbox, env)
        #expect(line.contains("the waiter for the buttons ended: another notification service (:1.")
                && line.contains(") took org.freedesktop.Notifications over from the one that showed it (:1."), "\(line)")
        // The new service was not asked to close a notification it never showed (its ids are its own).
        #expect(second.closed().isEmpty && first.closed().isEmpty, "\(second.closed()) \(first.closed())")
        withExtendedLifetime((first, second)) {}
    }

    /// The race: the service leaves right after answering `Notify`, before the waiter could ask anything else.
    @Test(.hangGuard)
    func theWaiterEndsWhenTheServiceLeavesRightAfterShowingIt() throws {
        let sandbox = Sandbox()
        // The leaving service joins a bus that stays (a service of a session of its own would take the bus with it).
        let base = try FakeNotificationService(config: ["allow_replacement": true])
        let leaving = try FakeNotificationService(config: ["replace": true, "leave_after_notify": true], bus: base.busAddress)
        let env = try prepared(sandbox, base)
        let deliver = try sandbox.notif(["deliver", "tips-and-updates"], env)
        #expect(deliver.stdout.contains("with Turn off and Settings"), "\(deliver)")
        #expect(leaving.notifications().count == 1 && base.notifications().isEmpty)
        #expect(waitUntil(30) { waiters(sandbox).isEmpty }, "the waiter stayed after the service left")
        let line = try endOfWait(sandbox, env)
        #expect(line.contains("the waiter for the buttons ended: the notification service (:1.") && line.contains(") left the session bus"), "\(line)")
        #expect(try busOwner(of: Self.service, onBus: base.busAddress) == nil, "someone still serves the name")
        withExtendedLifetime((base, leaving)) {}
    }

    @Test(.hangGuard)
    func theWaiterEndsWhenTheBusConnectionEnds() throws {
        let sandbox = Sandbox()
        let service = try FakeNotificationService(config: [:])
        let env = try prepared(sandbox, service)
        #expect(try sandbox.notif(["deliver", "tips-and-updates"], env).stdout.contains("with Turn off and Settings"))
        #expect(waiters(sandbox).count == 1, "the waiter waits while the service shows it")
        let bus = try #require(try busOwner(of: "org.freedesktop.DBus", onBus: service.busAddress), "no pid for the bus")
        #expect(kill(bus, SIGKILL) == 0)
        #expect(waitUntil(30) { waiters(sandbox).isEmpty }, "the waiter outlived its bus")
        let line = try endOfWait(sandbox, env)
        #expect(line.contains("the waiter for the buttons ended: its session bus connection ended (") && line.contains(") before a button was pressed"), "\(line)")
        withExtendedLifetime(service) {}
    }
}
