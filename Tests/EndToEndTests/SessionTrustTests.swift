import Foundation
import Testing
import TestSupport

/// A session's bus and display are used only when this user (or root) serves them, whether they
/// come from the process's environment or from the record (doc/security.md). Each test
/// reproduces an attack of issue 22's new-user trial that worked on an earlier build.
@Suite(.serialized, .enabled(if: isRoot, "needs root for throwaway users")) struct SessionTrustTests {
    /// The reminder's waiter, run by hand; it waits at most `seconds` for a button.
    static func waiter(_ seconds: Int = 20) -> [String] {
        [DetachedActionWaiterName.command, "tips-and-updates", "--show-within", "5000", "--wait-at-most", String(seconds)]
    }

    /// A directory where the stand-in terminal writes the DISPLAY it was opened on.
    final class Launches {
        let path: String
        let fakes: FakeTools
        init(_ sandbox: Sandbox) throws {
            path = sandbox.path + "/launched"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            chmod(path, 0o777)
            fakes = try FakeTools(in: sandbox)
            try fakes.add("x-terminal-emulator", "echo \"DISPLAY=$DISPLAY\" > '\(path)/terminal'")
        }
        var terminal: String? { try? String(contentsOfFile: path + "/terminal", encoding: .utf8) }
        func forget() { unlink(path + "/terminal") }
    }

    /// Ends the reminder waiters `user` left waiting for a notification service (they hold its wait lock).
    func endWaiters(_ user: TestUser) {
        // Until none is left and the wait lock is free (a loaded run showed "busy" after a waiter
        // that was ended too early, or not yet found).
        let lock = user.stateDir + "/wait-tips-and-updates.lock"
        _ = waitUntil(15) {
            let waiting = Waiters.find(DetachedActionWaiterName.command, uid: user.uid)
            for pid in waiting { kill(pid, SIGKILL) }
            let free = (try? run(["flock", "-n", lock, "true"], environment: ["PATH": "/usr/bin:/bin"]))?.status == 0
            return waiting.isEmpty && (free || !FileManager.default.fileExists(atPath: lock))
        }
    }

    /// Finding 1: root ran `notif deliver` with A's DBUS_SESSION_BUS_ADDRESS and DISPLAY (as `su`
    /// leaves them); the reminder went to A's bus, whose server pressed Settings, and root's terminal
    /// opened on A's X server. Root's session.env recorded both. Now root uses neither.
    @Test(.hangGuard)
    func rootsRunUsesNeitherAnotherUsersBusNorTheirDisplay() throws {
        let a = try TestUser.make("notif-trsess-root")
        defer { deleteUser(a) }
        let bus = try OpenBus(a, path: a.home + "/abus")
        let service = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2], user: a, bus: bus.address)
        let display = try XServer(a)
        let sandbox = Sandbox()
        let program = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let launches = try Launches(sandbox)
        let theirs = sandbox.environment(["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": display.display, "PATH": launches.fakes.path,
                                          "TZ": ZoneShift.whereItIs(9, 5)])
        let notif = { (args: [String]) in try run([program] + args, environment: theirs) }
        #expect(try notif(["permission", "grant"]).status == 0)
        #expect(try notif(["set", "tips-and-updates", "on"]).status == 0)
        let session = sandbox.read(sandbox.stateDir + "/session.env") ?? ""
        #expect(!session.contains(bus.address) && !session.contains(display.display), "root recorded A's session: \(session)")
        try sandbox.entriesFromYesterday()
        let deliver = try notif(["deliver", "tips-and-updates"])
        #expect(deliver.stdout.contains("this session: its bus \(bus.address) is not used: "), "\(deliver)")
        #expect(service.notifications().isEmpty, "root's reminder went to A's bus: \(service.notifications())")
        #expect(launches.terminal == nil, "root's terminal opened on A's display")
    }

    /// Finding 2: A's own runs. (a) A's session bus socket in /tmp was gone; B made the same path
    /// again with a bus of their own (another guid) and an X server on A's old display, and A's run
    /// delivered through B's bus and opened A's terminal on B's display. (b) A's own bus, but a TCP
    /// DISPLAY served by B. Now neither is used, the run says why, and nothing of it is recorded.
    @Test(.hangGuard)
    func anotherUsersBusOrDisplayInTheUsersEnvironmentIsNotUsed() throws {
        let a = try TestUser.make("notif-trsess-a")
        let b = try TestUser.make("notif-trsess-b")
        defer { endWaiters(a); deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let program = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let launches = try Launches(sandbox)
        let base = ["PATH": launches.fakes.path, "XDG_DATA_DIRS": "/nonexistent", "TZ": ZoneShift.whereItIs(9, 5)]

        // (a) B's bus on the path of A's ended session, named with that session's guid.
        let path = "/tmp/notif-trsess-bus-" + UUID().uuidString.prefix(8).lowercased()
        defer { unlink(path) }
        let theirBus = try OpenBus(b, path: path)
        let theirService = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2], user: b, bus: theirBus.address)
        let theirDisplay = try XServer(b, tcp: true)
        let stale = theirBus.address + ",guid=" + String(repeating: "5a", count: 16)
        let staleEnv = base.merging(["DBUS_SESSION_BUS_ADDRESS": stale, "DISPLAY": theirDisplay.display]) { $1 }
        try a.reminderDueToday(program, staleEnv)
        let session = a.read(a.stateDir + "/session.env") ?? ""
        #expect(!session.contains(path) && !session.contains(theirDisplay.display), "A recorded B's session: \(session)")
        let refused = try a.run([program, "deliver", "tips-and-updates"], staleEnv)
        #expect(refused.stdout.contains("this session: its bus \(stale) is not used: "), "\(refused)")
        #expect(theirService.notifications().isEmpty, "A's reminder went to B's bus: \(theirService.notifications())")
        endWaiters(a)

        // A's own bus again, but named with another guid than its own: not the bus the address names.
        let service = try FakeNotificationService(config: ["invoke": "settings", "invoke_after": 0.2], user: a)
        let ownPath = try #require(service.busAddress.split(separator: ",").first.map(String.init))
        let wrongGuid = try a.run([program, "deliver", "tips-and-updates"],
                                  base.merging(["DBUS_SESSION_BUS_ADDRESS": ownPath + ",guid=" + String(repeating: "0", count: 32)]) { $1 })
        #expect(wrongGuid.stdout.contains("is not used: it is another bus than the address names"), "\(wrongGuid)")
        #expect(service.notifications().isEmpty)
        endWaiters(a)

        // (b) A's own bus; the DISPLAY in A's environment is B's, over TCP or local; then A's own.
        func press(_ display: String) throws -> String? {
            launches.forget()
            try a.notSentToday()
            let before = service.notifications().count
            let env = base.merging(["DBUS_SESSION_BUS_ADDRESS": service.busAddress, "DISPLAY": display]) { $1 }
            let shown = try a.run([program] + Self.waiter(), env)
            #expect(shown.stdout.hasPrefix("shown "), "\(shown)")
            _ = waitUntil(10) { launches.terminal != nil || service.notifications().count == before + 2 }
            return launches.terminal
        }
        let tcp = "localhost" + theirDisplay.display
        #expect(try press(tcp) == nil, "A's terminal opened on B's display over TCP")
        #expect((service.notifications().last?["body"] as? String)?.contains("this session's DISPLAY=\(tcp) is not used: it is not a display of this machine") == true,
                "\(service.notifications())")
        #expect(try press(theirDisplay.display) == nil, "A's terminal opened on B's display")
        #expect((service.notifications().last?["body"] as? String)?.contains("this session's DISPLAY=\(theirDisplay.display) is not used: it is served by another user (uid \(b.uid))") == true,
                "\(service.notifications())")
        let mine = try XServer(a)
        #expect(try press(mine.display) == "DISPLAY=\(mine.display)\n", "A's own display was not used")
    }

    /// Finding 4: the icon went by name (`notif`), so the notification server looked it up itself
    /// in XDG_DATA_DIRS and showed B's icon from B's directory (notif had skipped B's file). Now it
    /// is the absolute path of an icon that passes the trust rule, or none.
    @Test(.hangGuard)
    func theIconIsATrustedFilesPathOrNone() throws {
        let a = try TestUser.make("notif-trsess-icon-a")
        let b = try TestUser.make("notif-trsess-icon-b")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let program = try NotifBinary.releaseCopy(in: sandbox, directory: "bin")
        let theirs = "/tmp/notif-trsess-data-" + UUID().uuidString.prefix(8).lowercased()
        defer { _ = try? run(["rm", "-rf", theirs], environment: ["PATH": "/usr/bin:/bin"]) }
        let relative = "/icons/hicolor/scalable/apps/notif.svg"
        try b.run(["sh", "-c", "mkdir -p \"${0%/*}\" && echo '<svg/>' > \"$0\"", theirs + relative]).expectSuccess()
        let service = try FakeNotificationService(config: [:], user: a)
        let env = ["DBUS_SESSION_BUS_ADDRESS": service.busAddress, "XDG_DATA_DIRS": theirs, "TZ": ZoneShift.whereItIs(9, 5)]
        try a.reminderDueToday(program, env)
        #expect(try a.run([program] + Self.waiter(1), env).stdout.hasPrefix("shown "))
        #expect(service.notifications().last?["icon"] as? String == "", "an icon the server would look up itself: \(service.notifications())")

        let mine = a.home + "/.local/share" + relative
        try a.run(["sh", "-c", "mkdir -p \"${0%/*}\" && echo '<svg/>' > \"$0\"", mine]).expectSuccess()
        try a.notSentToday()
        #expect(try a.run([program] + Self.waiter(1), env).stdout.hasPrefix("shown "))
        #expect(service.notifications().last?["icon"] as? String == mine, "\(service.notifications())")
    }
}
