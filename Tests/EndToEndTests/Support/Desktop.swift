import Foundation

/// A headless X display (Xvfb) any user may connect to, for dunst.
final class VirtualDisplay {
    let display: String
    private let process: Process

    init() throws {
        // Xvfb picks a free display number itself and writes it to fd 3 (-displayfd) once it
        // listens, so tests starting displays at the same time never share one. Process cannot
        // hand a child fd 3, so a shell moves the pipe there from stdout.
        let ready = Pipe()
        let process = Process()
        self.process = process
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec /usr/bin/Xvfb -displayfd 3 -ac -nolisten tcp -screen 0 640x480x24 3>&1 >/dev/null 2>&1"]
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = ready.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = waitUntil(10) {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { text += String(decoding: buffer[0..<n], as: UTF8.self) }
            return text.contains("\n") || !process.isRunning
        }
        guard got, let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw E2EFailure("Xvfb did not start (it said \"\(text)\")")
        }
        display = ":\(number)"
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A user's private desktop session: its own D-Bus session bus with dunst as the notification
/// server, so notifications can be read back with `dunstctl history`.
final class DesktopSession {
    let user: TestUser
    let busAddress: String
    private let process: Process

    init(user: TestUser, display: VirtualDisplay) throws {
        self.user = user
        let busFile = user.home + "/.notif-e2e-bus"
        try? FileManager.default.removeItem(atPath: busFile)
        let env = user.environment(["DISPLAY": display.display])
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", user.name, "--", "/usr/bin/env", "-i"] + assignments + [
            "dbus-run-session", "--", "sh", "-c",
            "printf '%s' \"$DBUS_SESSION_BUS_ADDRESS\" > \"$HOME/.notif-e2e-bus\"; exec dunst -conf /dev/null",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var address = ""
        guard waitUntil(15, {
            address = user.read(busFile) ?? ""
            return !address.isEmpty
        }) else { throw E2EFailure("no session bus for \(user.name)") }
        busAddress = address
        let ready = try waitUntil(15) {
            try user.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"],
                         ["DBUS_SESSION_BUS_ADDRESS": address]).stdout.contains("true")
        }
        guard ready else { throw E2EFailure("dunst did not take org.freedesktop.Notifications for \(user.name)") }
    }

    /// The session's variables, as a desktop terminal would have them.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress] }

    /// Summaries and app names of every notification shown so far.
    func shown() throws -> [(app: String, summary: String)] {
        try history().map { ($0["appname"] ?? "", $0["summary"] ?? "") }
    }

    /// Every notification shown so far, as dunst keeps it (`appname`, `summary`, `icon_path`…),
    /// its string fields only.
    func history() throws -> [[String: String]] {
        _ = try user.run(["dunstctl", "close-all"], environment)
        let result = try user.run(["dunstctl", "history"], environment)
        guard let data = result.stdout.data(using: .utf8),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let groups = object["data"] as? [[[String: Any]]] else {
            throw E2EFailure("dunstctl history: \(result)")
        }
        return groups.flatMap { $0 }.map { item in
            item.compactMapValues { ($0 as? [String: Any])?["data"] as? String }
        }
    }

    deinit {
        _ = try? EndToEndTests.run(["pkill", "-KILL", "-u", user.name], environment: ["PATH": "/usr/bin:/bin"])
        process.waitUntilExit()
    }
}

/// A cron daemon whose clock starts at a chosen moment (libfaketime), in a private mount
/// namespace (its own /run for the pid file) so it never collides with a cron the machine runs.
/// With `bootJobs` it behaves as at system startup and runs every `@reboot` job; otherwise the
/// marker cron leaves at startup (/run/crond.reboot) is put there first.
final class FakeTimeCron {
    private let process: Process

    init(startingAt stamp: String, bootJobs: Bool = false) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let marker = bootJobs ? "" : " && touch /run/crond.reboot"
        process.arguments = ["--mount", "--propagation", "private", "sh", "-c",
                             "mount -t tmpfs tmpfs /run\(marker) && exec faketime -f '@\(stamp)' /usr/sbin/cron -f -L 15"]
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TZ": "UTC"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// faketime (the process started) and the cron it runs.
    var isRunning: Bool { process.isRunning && !children.isEmpty }

    private var children: [pid_t] {
        let pid = process.processIdentifier
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0) }
    }

    deinit {
        for child in children { kill(child, SIGKILL) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
