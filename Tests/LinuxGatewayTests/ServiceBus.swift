import Foundation
import TestSupport
@testable import LinuxGateway

/// A session bus of its own for one test (a dbus-daemon whose only service directory is a scratch
/// one, so what D-Bus activation can start is the test's choice), and the stand-in notification
/// service (Tests/Fixtures/notification_server.py) on it: started by the test, or by the bus
/// through an activation file (which leaves a mark when it runs). Everything stops when released.
final class ServiceBus {
    let scratch = Scratch()
    let address: String
    private let daemon: Process
    private var servers: [Process] = []

    /// - Parameters:
    ///   - activatable: an activation file for org.freedesktop.Notifications starts the server.
    ///   - capabilities: what the server's GetCapabilities answers.
    init(activatable: Bool = false, capabilities: [String] = ["actions", "body"]) throws {
        let services = scratch.path + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path + "/server", withIntermediateDirectories: true)
        let config = try JSONSerialization.data(withJSONObject: ["capabilities": capabilities])
        try config.write(to: URL(fileURLWithPath: scratch.path + "/server/config.json"))
        let filePath: String = #filePath
        let fixture = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/notification_server.py").path
        if activatable {
            let script = scratch.path + "/start-server"
            try """
                #!/bin/sh
                touch '\(scratch.path)/activated'
                export DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-$DBUS_STARTER_ADDRESS}"
                exec /usr/bin/python3 '\(fixture)' '\(scratch.path)/server'

                """.write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=\(script)\n"
                .write(toFile: services + "/org.freedesktop.Notifications.service", atomically: true, encoding: .utf8)
        }
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:tmpdir=/tmp</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(toFile: scratch.path + "/bus.conf", atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=" + scratch.path + "/bus.conf", "--nofork", "--print-address=1"]
        daemon.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw TestFailure("dbus-daemon printed no address") }
        self.fixture = fixture
    }

    private let fixture: String

    /// The mark the activation file's script leaves when the bus starts it.
    var activationMark: String { scratch.path + "/activated" }
    var activated: Bool { FileManager.default.fileExists(atPath: activationMark) }

    /// Starts the server on the bus and waits until it owns the name.
    func startServer() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [fixture, scratch.path + "/server"]
        server.environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        servers.append(server)
        let owned = scratch.path + "/server/bus"
        guard waitUntil(15, { FileManager.default.fileExists(atPath: owned) }) else { throw TestFailure("the notification server did not start") }
    }

    /// Every notification the server was sent.
    var notifications: [[String: Any]] {
        let text = (try? String(contentsOfFile: scratch.path + "/server/notify.jsonl", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    deinit {
        if let pid = (try? String(contentsOfFile: scratch.path + "/server/pid", encoding: .utf8)).flatMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        for server in servers where server.isRunning { kill(server.processIdentifier, SIGKILL) }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }
}
