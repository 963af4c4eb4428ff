import Foundation
import TestSupport

/// The stand-in Account server (Tests/Fixtures/account_server.py) on a loopback port,
/// recording every request it receives.
final class AccountServer {
    let directory: String
    let port: Int
    private let process: Process

    init(script: [String: Any] = [:]) throws {
        let filePath: String = #filePath
        directory = "/tmp/notif-server-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/account_server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [fixture, directory]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try Self.write(script, to: directory)
        try process.run()
        let portFile = directory + "/port"
        guard waitUntil(10, { FileManager.default.fileExists(atPath: portFile) }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            throw E2EFailure("the test server did not start")
        }
        self.port = port
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var url: String { "http://127.0.0.1:\(port)" }

    func setScript(_ script: [String: Any]) throws {
        try Self.write(script, to: directory)
    }

    private static func write(_ script: [String: Any], to directory: String) throws {
        let data = try JSONSerialization.data(withJSONObject: script)
        try data.write(to: URL(fileURLWithPath: directory + "/script.json.tmp"))
        _ = rename(directory + "/script.json.tmp", directory + "/script.json")
    }

    /// Every request seen so far.
    func requests() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
