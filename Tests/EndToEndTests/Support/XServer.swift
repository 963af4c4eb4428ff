import Foundation
import TestSupport

/// An X server (Xvfb) run by `user` (root when nil) on a free display it chose (`-displayfd`),
/// killed by its own pid when dropped.
final class XServer {
    let display: String
    private let process: Process
    private var serverPID: pid_t = 0

    init(_ user: TestUser?, tcp: Bool = false, size: String = "320x240") throws {
        let ready = Pipe()
        process = Process()
        // The shell prints its pid, then becomes Xvfb, which prints the display number.
        let script = "exec 3>&1; echo $$ >&3; exec /usr/bin/Xvfb -displayfd 3 -ac \(tcp ? "-listen tcp " : "")-screen 0 \(size)x24 >/dev/null 2>&1"
        process.executableURL = URL(fileURLWithPath: user == nil ? "/bin/sh" : "/usr/sbin/runuser")
        process.arguments = (user.map { ["-u", $0.name, "--", "/bin/sh"] } ?? []) + ["-c", script]
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = ready.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 64)
        let started = waitUntil(10) {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { text += String(decoding: buffer[0..<n], as: UTF8.self) }
            return text.split(separator: "\n").count >= 2
        }
        let lines = text.split(separator: "\n").compactMap { Int($0) }
        guard started, lines.count == 2 else {
            process.terminate()
            throw E2EFailure("Xvfb as \(user?.name ?? "root"): \(text)")
        }
        serverPID = pid_t(lines[0])
        display = ":\(lines[1])"
    }

    deinit {
        if serverPID > 0 { kill(serverPID, SIGKILL) }
        process.waitUntilExit()
    }
}
