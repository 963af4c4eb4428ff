import Foundation
@testable import LinuxGateway

/// A system user made for a test (name starts with notif-t; `make test` removes them), so real
/// crontabs can be edited without touching anyone's own.
struct ThrowawayUser {
    let name: String
    let home: String

    static func make(_ name: String) throws -> ThrowawayUser {
        precondition(name.hasPrefix("notif-t"))
        if (try? sh(["id", "-u", name]))?.exitStatus != 0 {
            let made = try sh(["useradd", "--create-home", "--shell", "/bin/sh", name])
            guard made.succeeded else { throw TestFailure("useradd \(name): \(made.stderrText)") }
        }
        let home = try sh(["sh", "-c", "getent passwd \(name) | cut -d: -f6"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try sh(["crontab", "-r", "-u", name])
        return ThrowawayUser(name: name, home: home)
    }

    func crontab() throws -> String {
        let result = try sh(["crontab", "-l", "-u", name])
        return result.succeeded ? result.stdoutText : ""
    }

    var hasNoCrontab: Bool { !FileManager.default.fileExists(atPath: "/var/spool/cron/crontabs/\(name)") }

    func setCrontab(_ text: String?) throws {
        if let text {
            let result = try sh(["crontab", "-u", name, "-"], input: Array(text.utf8))
            guard result.succeeded else { throw TestFailure("crontab -u \(name): \(result.stderrText)") }
        } else {
            _ = try sh(["crontab", "-r", "-u", name])
        }
    }
}

/// Runs every command as another user (`runuser -u NAME --`), through the real runner.
struct AsUserRunner: ProcessRunner {
    let user: String
    func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        try SpawnProcessRunner().run(["runuser", "-u", user, "--"] + argv, input: input, environment: environment, timeout: timeout)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func sh(_ argv: [String], input: [UInt8]? = nil) throws -> ProcessResult {
    try SpawnProcessRunner().run(argv, input: input, timeout: 30)
}
