import Foundation
import TestSupport

/// The stand-in notification service (Tests/Fixtures/notification_server.py) on a private
/// session bus of its own (`dbus-run-session`), as root or as a throwaway user: it presses a
/// button of the notification when told to, and records every notification it is sent.
final class FakeNotificationService {
    let directory: String
    let busAddress: String
    private let group: ProcessGroup

    /// - Parameters:
    ///   - config: what it answers and does (see the fixture); changeable with `configure`.
    ///   - user: whose it is (root's when nil).
    ///   - bus: a session bus already there (a user manager's) instead of a private one.
    init(config: [String: Any], user: TestUser? = nil, bus: String? = nil) throws {
        let filePath: String = #filePath
        let fixture = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/notification_server.py").path
        directory = "/tmp/notif-notifyd-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/notification_server.py"
        try FileManager.default.copyItem(atPath: fixture, toPath: script)
        chmod(directory, 0o777)
        chmod(script, 0o755)
        let server = (bus.map { ["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=\($0)"] } ?? ["/usr/bin/dbus-run-session", "--"])
            + ["/usr/bin/python3", script, directory]
        let argv: [String]
        if let user {
            // In the user's name (runuser keeps the process group).
            let env = user.environment()
            argv = ["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + env.keys.sorted().map { "\($0)=\(env[$0]!)" } + server
        } else {
            argv = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(directory)"] + server
        }
        let dir = directory
        try Self.write(config, to: dir)
        group = try ProcessGroup(argv)
        var address = ""
        guard waitUntil(15, {
            address = (try? String(contentsOfFile: dir + "/bus", encoding: .utf8)) ?? ""
            return !address.isEmpty
        }) else { throw E2EFailure("the test notification service did not start") }
        busAddress = address
    }

    func configure(_ config: [String: Any]) throws {
        try Self.write(config, to: directory)
    }

    private static func write(_ config: [String: Any], to directory: String) throws {
        let data = try JSONSerialization.data(withJSONObject: config)
        try data.write(to: URL(fileURLWithPath: directory + "/config.json.tmp"))
        _ = rename(directory + "/config.json.tmp", directory + "/config.json")
        chmod(directory + "/config.json", 0o644)
    }

    /// Every notification sent to it so far.
    func notifications() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: directory + "/notify.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The ids of the notifications it was asked to close.
    func closed() -> [Int] {
        guard let text = try? String(contentsOfFile: directory + "/closed.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["id"] as? Int }
    }

    deinit {
        // runuser, dbus-run-session, its dbus-daemon and the server: one process group.
        group.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A session bus of its own at `socket` (a dbus-daemon listening there) on which a process owns
/// org.freedesktop.Notifications and never answers a call: a notification service that hangs.
/// `release()` (or the end of its life) stops the owner; `stop()` the bus too.
final class HangingNotificationService {
    let socket: String
    var busAddress: String { "unix:path=\(socket)" }
    private let bus: BackgroundProcess
    private var owner: BackgroundProcess?

    init(socket: String, logs directory: String) throws {
        self.socket = socket
        bus = try BackgroundProcess(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=unix:path=\(socket)"],
                                    environment: ["PATH": "/usr/bin:/bin"], output: directory + "/bus.log")
        guard waitUntil(10, { FileManager.default.fileExists(atPath: socket) }) else { throw E2EFailure("no bus at \(socket)") }
        let mark = directory + "/hanging"
        unlink(mark)
        owner = try BackgroundProcess(["/usr/bin/python3", "-c", "import dbus, time\nb = dbus.SessionBus()\nb.request_name('org.freedesktop.Notifications')\n"
                                       + "open('\(mark)', 'w').close()\ntime.sleep(600)\n"],
                                      environment: ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"],
                                      output: directory + "/hanging.log")
        guard waitUntil(10, { FileManager.default.fileExists(atPath: mark) }) else { throw E2EFailure("nothing took the service's name") }
    }

    /// The owner goes: the name has no owner any more, the bus stays.
    func release() {
        if let owner { kill(owner.pid, SIGKILL) }
        owner = nil
    }

    deinit {
        release()
        kill(bus.pid, SIGKILL)
    }
}
