import Foundation
import TestSupport

/// A `notif daemon` started in the background (directly or through runuser/faketime), its
/// output collected in a file. Whatever happens, it is killed and reaped when released.
final class DaemonProcess {
    private let process = Process()
    private let outputPath: String

    init(_ argv: [String], environment: [String: String], outputIn directory: String) throws {
        outputPath = directory + "/daemon-\(UUID().uuidString.prefix(8)).out"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else { throw E2EFailure("cannot create \(outputPath)") }
        let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = sink
        process.standardError = sink
        try process.run()
        try sink.close()
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// The daemon's own pid, from its first line (`notif daemon: running (pid N)`).
    var daemonPID: pid_t? {
        guard let range = output.range(of: "running (pid ") else { return nil }
        return pid_t(output[range.upperBound...].prefix { $0.isNumber })
    }

    func waitUntilRunning(_ seconds: TimeInterval = 15) -> Bool {
        waitUntil(seconds) { daemonPID != nil }
    }

    /// Sends `signal` to the daemon itself (not to a runuser around it).
    func send(_ signal: Int32) {
        if let pid = daemonPID { kill(pid, signal) }
    }

    /// Whether it has ended.
    var hasExited: Bool { !process.isRunning }

    /// The exit status once it ended within `seconds`, else nil.
    func waitForExit(_ seconds: TimeInterval = 15) -> Int32? {
        guard waitUntil(seconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    deinit {
        if process.isRunning {
            if let pid = daemonPID { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: outputPath)
    }
}
