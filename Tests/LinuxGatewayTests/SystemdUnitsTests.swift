import Foundation
import Testing
import SharedLogic
@testable import LinuxGateway

@Suite struct SystemdCommandTests {
    @Test func plainWordsStayBareAndSpecialOnesAreQuotedAndEscaped() throws {
        #expect(try SystemdCommand.render(["/usr/local/bin/notif", "deliver", "--catch-up", "tips-and-updates"])
            == "/usr/local/bin/notif deliver --catch-up tips-and-updates")
        #expect(try SystemdCommand.render(["/opt/my tools/50%/notif", "deliver", "x"]) == #""/opt/my tools/50%%/notif" deliver x"#)
        #expect(try SystemdCommand.render(["/usr/bin/env", "XDG_CONFIG_HOME=/srv/my cfg", "/n"]) == #"/usr/bin/env "XDG_CONFIG_HOME=/srv/my cfg" /n"#)
        // In arguments `$` is doubled; in the program path systemd takes it literally.
        #expect(try SystemdCommand.render(["/a$b/notif", "c$d", "%n"]) == #"/a$b/notif c$$d %%n"#)
        #expect(try SystemdCommand.render(["/n", "say \"hi\"", "back\\slash", "two\nlines\tand tab", "", ";"])
            == #"/n "say \"hi\"" "back\\slash" "two\nlines\tand tab" "" \;"#)
    }

    @Test(arguments: ["/my \"quoted\"/notif", "/it's/notif", "/back\\slash/notif", "/new\nline/notif", "relative/notif"])
    func programPathsSystemdRefusesAreRefusedWithTheReason(path: String) {
        #expect {
            try SystemdCommand.render([path, "deliver", "x"])
        } throws: { error in
            "\(error)".contains(path.debugDescription) && "\(error)".contains("systemd")
        }
    }
}

/// The unit files checked by systemd's own tools (no running systemd needed).
@Suite struct SystemdUnitFilesTests {
    /// `systemd-analyze --user verify` on the given files; stderr must stay empty (unknown keys only warn).
    static func verify(_ files: [String], scratch: Scratch) throws -> ProcessResult {
        let runtime = scratch.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try SpawnProcessRunner().run(["systemd-analyze", "--user", "verify"] + files, input: nil,
                                            environment: ["XDG_RUNTIME_DIR": runtime, "HOME": scratch.path], timeout: 60)
    }

    /// An executable at `path` (its directory made), standing in for notif.
    static func program(at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\nexit 0\n".utf8), attributes: [.posixPermissions: 0o755]) else {
            throw TestFailure("cannot create \(path)")
        }
    }

    func entry(program: String, xdg: String? = nil) -> ScheduledEntry {
        let prefix = xdg.map { ["/usr/bin/env", "XDG_CONFIG_HOME=\($0)"] } ?? []
        return ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: prefix + [program, "deliver", "tips-and-updates"],
                              catchUpCommand: prefix + [program, "deliver", "--catch-up", "tips-and-updates"])
    }

    func write(_ entry: ScheduledEntry, in dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let timer = dir + "/notif-tips-and-updates.timer", service = dir + "/notif-tips-and-updates.service"
        try SystemdUnits.timer(for: entry).write(toFile: timer, atomically: true, encoding: .utf8)
        try SystemdUnits.service(for: entry).write(toFile: service, atomically: true, encoding: .utf8)
        return [timer, service]
    }

    @Test func theUnitsPassVerifyWithAPathHoldingSpacesPercentSpecifiersAndDollar() throws {
        let scratch = Scratch()
        // `%n` would expand to the unit's name and `%%` halves: only exact escaping finds this file.
        let program = scratch.path + "/my bin 100% %n $HOME/notif"
        try Self.program(at: program)
        let files = try write(entry(program: program), in: scratch.path + "/units")
        let result = try Self.verify(files, scratch: scratch)
        #expect(result.exitStatus == 0 && result.stderr.isEmpty, "\(result.failureSummary)\n\(String(decoding: result.stderr, as: UTF8.self))")
        let service = try String(contentsOfFile: files[1], encoding: .utf8)
        // The program path: `%` doubled, `$` as is (systemd does not expand variables there).
        let execStart = "\nExecStart=\"\(scratch.path)/my bin 100%% %%n $HOME/notif\" deliver --catch-up tips-and-updates\n"
        #expect(service.contains(execStart), "\(service)")
    }

    @Test func withXDGDirectoriesCarriedThroughEnvTheArgumentsAreEscapedToo() throws {
        let scratch = Scratch()
        let program = scratch.path + "/my bin 100% %n $HOME/notif"
        try Self.program(at: program)
        let files = try write(entry(program: program, xdg: scratch.path + "/my cfg 5%"), in: scratch.path + "/units")
        let result = try Self.verify(files, scratch: scratch)
        #expect(result.exitStatus == 0 && result.stderr.isEmpty, "\(result.failureSummary)\n\(String(decoding: result.stderr, as: UTF8.self))")
        let service = try String(contentsOfFile: files[1], encoding: .utf8)
        // Here notif's path is an argument of env: `$` is doubled so systemd does not expand it.
        let execStart = "\nExecStart=/usr/bin/env \"XDG_CONFIG_HOME=\(scratch.path)/my cfg 5%%\" \"\(scratch.path)/my bin 100%% %%n $$HOME/notif\" deliver --catch-up tips-and-updates\n"
        #expect(service.contains(execStart), "\(service)")
    }

    @Test func verifyCatchesAnUnescapedSpecifierSoTheCheckAbove() throws {
        // The same program, written without doubling `%`: systemd reads `%n` as the unit name.
        let scratch = Scratch()
        let program = scratch.path + "/bin %n/notif"
        try Self.program(at: program)
        let files = try write(entry(program: program), in: scratch.path + "/units")
        let text = try String(contentsOfFile: files[1], encoding: .utf8).replacingOccurrences(of: "%%n", with: "%n")
        try text.write(toFile: files[1], atomically: true, encoding: .utf8)
        let result = try Self.verify(files, scratch: scratch)
        #expect(!result.succeeded || !result.stderr.isEmpty)
    }

    @Test func theTimerIsDailyPersistentAndEnabledByTimersTarget() throws {
        let timer = SystemdUnits.timer(for: entry(program: "/usr/local/bin/notif"))
        for line in ["OnCalendar=*-*-* 09:00:00", "Persistent=true", "Unit=notif-tips-and-updates.service", "WantedBy=timers.target"] {
            #expect(timer.contains("\n" + line + "\n"), "missing \(line)")
        }
        #expect(timer.hasPrefix(SystemdUnits.marker + "\n"))
        #expect(SystemdUnits.id(inUnitName: "notif-tips-and-updates.timer") == "tips-and-updates")
        #expect(SystemdUnits.id(inUnitName: "notif-.timer") == nil && SystemdUnits.id(inUnitName: "other.timer") == nil)
    }

    @Test(arguments: [("America/New_York", ["14:00:00", "13:00:00"], ["EST", "EDT"]), ("Europe/Berlin", ["08:00:00", "07:00:00"], ["CET", "CEST"])])
    func theCalendarElapsesAtNineInTheZone(zone: String, utcTimes: [String], abbreviations: [String]) throws {
        let calendar = try #require(SystemdUnits.timer(for: entry(program: "/n")).split(separator: "\n")
            .first { $0.hasPrefix("OnCalendar=") }?.dropFirst("OnCalendar=".count))
        let result = try SpawnProcessRunner().run(["systemd-analyze", "calendar", "--iterations=3", String(calendar)], input: nil,
                                                  environment: ["TZ": zone], timeout: 30)
        #expect(result.succeeded, "\(result.failureSummary)")
        let lines = result.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let elapses = lines.filter { $0.hasPrefix("Next elapse:") || $0.hasPrefix("Iter. #") }
        let inUTC = lines.filter { $0.hasPrefix("(in UTC):") }
        #expect(elapses.count == 3 && inUTC.count == 3, "\(result.stdoutText)")
        for line in elapses {
            #expect(line.contains(" 09:00:00 ") && abbreviations.contains { line.hasSuffix(" " + $0) }, "\(line)")
        }
        for line in inUTC {
            #expect(utcTimes.contains { line.contains(" " + $0 + " UTC") }, "\(line)")
        }
    }
}
