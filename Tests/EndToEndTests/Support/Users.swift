import Foundation
import LinuxGateway

/// A throwaway system user (name starts with notif-t; `make test` deletes them) for tests that
/// need a real crontab or file permissions that root would ignore.
struct TestUser {
    let name: String
    let home: String
    let uid: String

    static func make(_ name: String) throws -> TestUser {
        precondition(name.hasPrefix("notif-t") && name.count <= 32)
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        if try EndToEndTests.run(["id", "-u", name], environment: env).status == 0 {
            // Left by a run that stopped early: nothing of it may still run.
            endProcesses(of: name)
        } else {
            // Tests run in parallel and useradd refuses while another holds /etc/passwd: take
            // turns through flock, and try again a few times.
            var made = RunResult(status: -1, stdout: "", stderr: "")
            for _ in 0..<5 {
                made = try EndToEndTests.run(["flock", "/tmp/notif-tests-useradd.lock", "useradd", "--create-home", "--shell", "/bin/sh", name], environment: env)
                if try made.status == 0 || EndToEndTests.run(["id", "-u", name], environment: env).status == 0 { break }
                usleep(200_000)
            }
            guard try EndToEndTests.run(["id", "-u", name], environment: env).status == 0 else { throw E2EFailure("useradd \(name): \(made)") }
        }
        let home = try EndToEndTests.run(["sh", "-c", "getent passwd \(name) | cut -d: -f6"], environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let uid = try EndToEndTests.run(["id", "-u", name], environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try EndToEndTests.run(["crontab", "-r", "-u", name], environment: env)
        // Start each test from an empty home for notif.
        _ = try EndToEndTests.run(["rm", "-rf", home + "/.config/notif", home + "/.local/state/notif"], environment: env)
        return TestUser(name: name, home: home, uid: uid)
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ["HOME": home, "USER": name, "LOGNAME": name, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// What notif's cron lines run before notif's program for this user with their own HOME
    /// (`CronCommand.pinned`): the variables their crontab may assign, set or unset.
    func cronPins(tz: String? = nil) -> String {
        "/usr/bin/env " + (tz == nil ? "-u TZ " : "") + "-u TZDIR -u XDG_CONFIG_HOME -u XDG_STATE_HOME -u XDG_DATA_HOME HOME=\(home)"
            + (tz.map { " TZ=" + $0 } ?? "")
    }

    /// Runs `argv` as this user with exactly `environment(extra)`.
    func run(_ argv: [String], _ extra: [String: String] = [:], input: String? = nil, timeout: TimeInterval = 60) throws -> RunResult {
        let env = environment(extra)
        let assignments = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        return try EndToEndTests.run(["/usr/sbin/runuser", "-u", name, "--", "/usr/bin/env", "-i"] + assignments + argv,
                                     environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], input: input, timeout: timeout)
    }

    /// The user's crontab ("" when there is none); a failure to read it is an error, never "".
    func crontab() throws -> String {
        let result = try EndToEndTests.run(["crontab", "-l", "-u", name], environment: ["PATH": "/usr/bin:/bin"])
        if result.status == 0 { return result.stdout }
        guard result.stderr.contains("no crontab for") else { throw E2EFailure("crontab -l -u \(name): \(result)") }
        return ""
    }

    func setCrontab(_ text: String) throws {
        let result = try EndToEndTests.run(["crontab", "-u", name, "-"], environment: ["PATH": "/usr/bin:/bin"], input: text)
        guard result.status == 0 else { throw E2EFailure("crontab -u \(name): \(result)") }
    }

    /// The user's crontab exactly as `crontab -l`, run as this user, prints it ([] when there is none).
    func crontabBytes() throws -> [UInt8] {
        let result = try SpawnProcessRunner().run(["/usr/sbin/runuser", "-u", name, "--", "/usr/bin/crontab", "-l"], timeout: 30)
        if result.succeeded { return result.stdout }
        guard result.stderrText.contains("no crontab for") else { throw E2EFailure("crontab -l as \(name): \(result.failureSummary)") }
        return []
    }

    /// Installs `bytes` as the user's crontab through `crontab -` run as this user (no decoding on the way).
    func setCrontab(bytes: [UInt8]) throws {
        let result = try SpawnProcessRunner().run(["/usr/sbin/runuser", "-u", name, "--", "/usr/bin/crontab", "-"], input: bytes, timeout: 30)
        guard result.succeeded else { throw E2EFailure("crontab - as \(name): \(result.failureSummary)") }
    }

    var crontabFile: String { "/var/spool/cron/crontabs/\(name)" }

    /// The user's crontab exactly as cron holds it: the spool file without the 3-line header
    /// crontab writes (`crontab -l` prints a CR byte as `\r`); [] when there is none.
    func spoolBytes() throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: crontabFile) else { return [] }
        let lines = Array(data).split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        return lines.count == 4 ? Array(lines[3]) : []
    }
    /// The tag of the user's default configuration in entry names (`notif-tips-and-updates-TAG.timer`).
    var tag: String { ConfigurationID(settingsPath: settingsPath, isDefault: true).tag }
    /// `notif-tips-and-updates-TAG.timer`, `….service`: the default configuration's units.
    var timerName: String { "notif-tips-and-updates-\(tag).timer" }
    var serviceName: String { "notif-tips-and-updates-\(tag).service" }
    var settingsPath: String { home + "/.config/notif/settings.json" }
    var stateDir: String { home + "/.local/state/notif" }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
