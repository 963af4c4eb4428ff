import Foundation
import Testing
import TestSupport
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
        var result = try SpawnProcessRunner().run(["systemd-analyze", "--user", "verify"] + files, input: nil,
                                                  environment: ["XDG_RUNTIME_DIR": runtime, "HOME": scratch.path], timeout: 60)
        result.stderr = SystemdVerifyNoise.strip(result.stderr)
        return result
    }

    /// An executable at `path` (its directory made), standing in for notif.
    static func program(at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeProgram("#!/bin/sh\nexit 0\n", to: path)
    }

    func entry(program: String, xdg: String? = nil) -> ScheduledEntry {
        let prefix = xdg.map { ["/usr/bin/env", "XDG_CONFIG_HOME=\($0)"] } ?? []
        return ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: prefix + [program, "deliver", "tips-and-updates"],
                              catchUpCommand: prefix + [program, "deliver", "--catch-up", "tips-and-updates"])
    }

    func write(_ entry: ScheduledEntry, in dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let timer = dir + "/" + SystemdUnits.timerName("tips-and-updates", tag: testOwner.tag)
        let service = dir + "/" + SystemdUnits.serviceName("tips-and-updates", tag: testOwner.tag)
        let calendars = SystemdUnits.calendars(for: entry, systemZone: .utc, now: Instant(seconds: 1_795_000_000))
        try SystemdUnits.timer(for: entry, owner: testOwner, calendars: calendars).write(toFile: timer, atomically: true, encoding: .utf8)
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

    /// The service of an entry without `TZ` drops any the manager has, so `notif deliver` counts
    /// in the system zone; one with `TZ` carries it. systemd's verify takes both.
    @Test func theServiceOfAnEntryWithoutTZDropsTheManagers() throws {
        let scratch = Scratch()
        let program = scratch.path + "/bin/notif"
        try Self.program(at: program)
        let files = try write(entry(program: program), in: scratch.path + "/units")
        let result = try Self.verify(files, scratch: scratch)
        #expect(result.exitStatus == 0 && result.stderr.isEmpty, "\(result.failureSummary)\n\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(try String(contentsOfFile: files[1], encoding: .utf8).contains("\nUnsetEnvironment=TZ\nExecStart="))
        let zoned = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/usr/bin/env", "TZ=Asia/Tokyo", program],
                                   catchUpCommand: ["/usr/bin/env", "TZ=Asia/Tokyo", program], zone: systemZone("Asia/Tokyo"), zoneVariable: "Asia/Tokyo")
        #expect(try !SystemdUnits.service(for: zoned).contains("UnsetEnvironment"))
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
        let entry = entry(program: "/usr/local/bin/notif")
        let timer = SystemdUnits.timer(for: entry, owner: testOwner, calendars: SystemdUnits.calendars(for: entry, systemZone: .utc, now: Instant(seconds: 0)))
        for line in ["OnCalendar=*-*-* 09:00:00", "OnClockChange=true", "OnTimezoneChange=true", "Persistent=true", "Unit=notif-tips-and-updates-\(testOwner.tag).service", "WantedBy=timers.target"] {
            #expect(timer.contains("\n" + line + "\n"), "missing \(line)")
        }
        #expect(timer.hasPrefix(SystemdUnits.marker + "\n"))
        #expect(SystemdUnits.parse(unitName: "notif-tips-and-updates-\(testOwner.tag).timer")! == ("tips-and-updates", testOwner.tag))
        #expect(SystemdUnits.parse(unitName: "notif-tips-and-updates.service")! == ("tips-and-updates", nil))
        #expect(SystemdUnits.parse(unitName: "notif-.timer") == nil && SystemdUnits.parse(unitName: "other.timer") == nil)
    }

    /// systemd skips a calendar time a daylight-saving gap leaves out (measured with its own
    /// calendar code): in a zone whose daylight time begins at 09:00, `*-*-* 09:00:00` does not
    /// elapse that day. The timer also gets the first moment after each gap to the horizon,
    /// dated in UTC, which does elapse.
    @Test func aGapOverNineGetsACalendarAtItsEnd() throws {
        let y1 = "YST-1YDT,M3.5.0/9,M10.5.0/3"
        let entry = entry(program: "/usr/local/bin/notif")
        let calendars = SystemdUnits.calendars(for: entry, systemZone: try #require(ZoneRules(posix: y1)), now: Instant(seconds: 1_795_000_000))
        #expect(calendars == ["*-*-* 09:00:00", "2027-03-28 08:00:00 UTC", "2028-03-26 08:00:00 UTC", "2029-03-25 08:00:00 UTC", "2030-03-31 08:00:00 UTC"])
        // 2027-03-28 is the last Sunday of March: 09:00 is skipped, 10:00 YDT (08:00 UTC) is there.
        #expect(try Self.elapses("*-*-* 09:00:00", from: "2027-03-27 12:00:00", count: 2, tz: y1) == ["2027-03-29 07:00:00 UTC", "2027-03-30 07:00:00 UTC"])
        #expect(try Self.elapses(calendars[1], from: "2027-03-27 12:00:00", count: 1, tz: y1) == ["2027-03-28 08:00:00 UTC"])
        // A gap from 08:30 to 09:30: systemd skips even 09:30, the first moment after it, as a
        // daily time that day; the dated calendar elapses.
        let z1 = "ZST-1ZDT,M3.5.0/8:30,M10.5.0/3"
        let half = SystemdUnits.calendars(for: entry, systemZone: try #require(ZoneRules(posix: z1)), now: Instant(seconds: 1_795_000_000))
        #expect(half.first == "*-*-* 09:00:00" && half.dropFirst().first == "2027-03-28 07:30:00 UTC", "\(half)")
        #expect(try Self.elapses("*-*-* 09:30:00", from: "2027-03-28 00:00:00", count: 1, tz: z1) == ["2027-03-29 07:30:00 UTC"])
        #expect(try Self.elapses(half[1], from: "2027-03-28 00:00:00", count: 1, tz: z1) == ["2027-03-28 07:30:00 UTC"])
        // A zone without such a gap keeps its one calendar.
        #expect(SystemdUnits.calendars(for: entry, systemZone: systemZone("Europe/Berlin"), now: Instant(seconds: 1_795_000_000)) == ["*-*-* 09:00:00"])
    }

    /// `systemd-analyze calendar` on `value` from `base` (UTC): the next `count` elapses in UTC.
    static func elapses(_ value: String, from base: String, count: Int = 3, tz: String = "UTC") throws -> [String] {
        let result = try SpawnProcessRunner().run(["systemd-analyze", "calendar", "--iterations=\(count)", "--base-time=\(base) UTC", value],
                                                  input: nil, environment: ["TZ": tz], timeout: 30)
        guard result.succeeded else { throw TestFailure("systemd-analyze calendar \(value): \(result.failureSummary)") }
        // In UTC the elapses are UTC already; otherwise each is followed by "(in UTC): …".
        let lines = result.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let inUTC = lines.filter { $0.hasPrefix("(in UTC):") }
        return (inUTC.isEmpty ? lines.filter { $0.hasPrefix("Next elapse:") || $0.hasPrefix("Iter. #") } : inUTC)
            .map { String($0.split(separator: " ").suffix(3).joined(separator: " ")) }
    }

    /// A user in another zone than the system's (`TZ` set): the zone goes into `OnCalendar=` by
    /// name, and systemd's own calendar code fires it at 09:00 there, across both DST changes,
    /// whatever zone the manager runs in.
    @Test(arguments: [
        ("Asia/Kolkata", "2026-11-30 12:00:00", ["2026-12-01 03:30:00 UTC", "2026-12-02 03:30:00 UTC", "2026-12-03 03:30:00 UTC"]),
        ("America/St_Johns", "2026-11-30 12:00:00", ["2026-11-30 12:30:00 UTC", "2026-12-01 12:30:00 UTC", "2026-12-02 12:30:00 UTC"]),
        ("America/St_Johns", "2026-03-06 13:00:00", ["2026-03-07 12:30:00 UTC", "2026-03-08 11:30:00 UTC", "2026-03-09 11:30:00 UTC"]),
        ("Europe/Berlin", "2026-03-27 12:00:00", ["2026-03-28 08:00:00 UTC", "2026-03-29 07:00:00 UTC", "2026-03-30 07:00:00 UTC"]),
        ("Europe/Berlin", "2026-10-23 12:00:00", ["2026-10-24 07:00:00 UTC", "2026-10-25 08:00:00 UTC", "2026-10-26 08:00:00 UTC"]),
    ])
    func theUsersZoneGoesIntoOnCalendarByName(zone: String, base: String, utc: [String]) throws {
        let entry = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/n"], catchUpCommand: ["/n"],
                                   zone: systemZone(zone), zoneVariable: zone)
        let calendars = SystemdUnits.calendars(for: entry, systemZone: .utc, now: Instant(seconds: 0))
        #expect(calendars == ["*-*-* 09:00:00 \(zone)"])
        // The manager's own zone does not matter.
        for managerZone in ["UTC", "America/New_York", "Pacific/Kiritimati"] {
            #expect(try Self.elapses(calendars[0], from: base, tz: managerZone) == utc, "manager in \(managerZone)")
        }
    }

    /// A manager started with a `TZ` of its own reads a calendar without a zone in that zone:
    /// the timer gets the times there that are 09:00 in the system zone the user sees, and
    /// systemd's calendar code, run in the manager's zone, elapses at 09:00 system time.
    @Test func aManagerWithATZOfItsOwnGetsTheSystemZonesNineInItsZone() throws {
        let entry = entry(program: "/usr/local/bin/notif")
        let berlin = systemZone("Europe/Berlin")
        let calendars = SystemdUnits.calendars(for: entry, systemZone: berlin, managerOwnZone: systemZone("Asia/Tokyo"),
                                               now: Instant(seconds: 1_795_000_000))
        #expect(calendars == ["*-*-* 16:00:00", "*-*-* 17:00:00"], "09:00 Berlin in Tokyo, summer and winter")
        let elapses = try calendars.flatMap { try Self.elapses($0, from: "2026-11-30 12:00:00", count: 2, tz: "Asia/Tokyo") }.sorted()
        // 08:00 UTC is 09:00 in Berlin in winter; the other line, 08:00 there, wakes a deliver that does nothing.
        #expect(elapses == ["2026-12-01 07:00:00 UTC", "2026-12-01 08:00:00 UTC", "2026-12-02 07:00:00 UTC", "2026-12-02 08:00:00 UTC"])
        // A manager in the system zone keeps the one calendar without a zone.
        #expect(SystemdUnits.calendars(for: entry, systemZone: berlin, now: Instant(seconds: 1_795_000_000)) == ["*-*-* 09:00:00"])
        // A zone named in TZ goes in by name, whatever the manager's.
        let kolkata = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/n"], catchUpCommand: ["/n"],
                                     zone: systemZone("Asia/Kolkata"), zoneVariable: "Asia/Kolkata")
        #expect(SystemdUnits.calendars(for: kolkata, systemZone: berlin, managerOwnZone: systemZone("Asia/Tokyo"), now: Instant(seconds: 0))
                == ["*-*-* 09:00:00 Asia/Kolkata"])
    }

    /// The manager's own zone comes from `TZ` (and `TZDIR`) in its environment block; none without one.
    @Test func theManagersZoneIsTheTZOfItsEnvironment() {
        func block(_ variables: [String]) -> [UInt8] { variables.flatMap { Array($0.utf8) + [0] } }
        #expect(SystemdManagerZone.zone(environ: block(["HOME=/home/u", "TZ=Asia/Tokyo", "LANG=C.UTF-8"]))?.name == "Asia/Tokyo")
        #expect(SystemdManagerZone.zone(environ: block(["HOME=/home/u", "PATH=/usr/bin"])) == nil)
        #expect(SystemdManagerZone.zone(environ: block(["TZ=NTF-5:37"])).map { $0.offset(at: Instant(seconds: 0)) } == 5 * 3_600 + 37 * 60)
        #expect(SystemdManagerZone.zone(environ: []) == nil)
    }

    @Test func tzValuesSystemdCannotNameFallBackToSystemZoneTimes() throws {
        let posix = ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: ["/n"], catchUpCommand: ["/n"],
                                   zone: ZoneRules(posix: "EST5EDT,M3.2.0,M11.1.0")!, zoneVariable: "EST5EDT,M3.2.0,M11.1.0")
        let calendars = SystemdUnits.calendars(for: posix, systemZone: .utc, now: Instant(seconds: 1_795_000_000))
        #expect(calendars == ["*-*-* 13:00:00", "*-*-* 14:00:00"])
        // Names and paths of the zone database are names; other files and odd names are not.
        #expect(SystemdZone.calendarName(forTZ: ":Asia/Tokyo") == "Asia/Tokyo")
        #expect(SystemdZone.calendarName(forTZ: "/usr/share/zoneinfo/Asia/Tokyo") == "Asia/Tokyo")
        #expect(SystemdZone.calendarName(forTZ: "") == "UTC")
        #expect(SystemdZone.calendarName(forTZ: "NTF-5:37") == nil)
        #expect(SystemdZone.calendarName(forTZ: "/etc/localtime") == nil)
        #expect(SystemdZone.calendarName(forTZ: "Asia/../Asia/Tokyo") == nil)
        #expect(SystemdZone.calendarName(forTZ: "Nowhere/Atlantis") == nil)
        for value in calendars + ["*-*-* 09:00:00 Asia/Tokyo"] {
            #expect(try !Self.elapses(value, from: "2026-11-30 12:00:00", count: 1).isEmpty, "\(value)")
        }
    }

    /// The service runs only while notif's program is there: systemd's own condition check.
    @Test func theServiceIsConditionalOnTheProgram() throws {
        let scratch = Scratch()
        let program = scratch.path + "/my bin 100% %n/notif"
        let files = try write(entry(program: program), in: scratch.path + "/units")
        let service = try String(contentsOfFile: files[1], encoding: .utf8)
        let condition = try #require(service.split(separator: "\n").first { $0.hasPrefix("ConditionFileIsExecutable=") }.map(String.init))
        #expect(condition == "ConditionFileIsExecutable=\(scratch.path)/my bin 100%% %%n/notif")
        func holds() throws -> Bool {
            try SpawnProcessRunner().run(["systemd-analyze", "condition", condition], input: nil, environment: [:], timeout: 30).succeeded
        }
        #expect(try !holds(), "no program yet")
        try Self.program(at: program)
        #expect(try holds())
        let verified = try Self.verify(files, scratch: scratch)
        #expect(verified.exitStatus == 0 && verified.stderr.isEmpty, "\(String(decoding: verified.stderr, as: UTF8.self))")
        for bad in ["/a\nb/notif", "/a/notif\\", "/a/notif "] {
            #expect(throws: GatewayError.self) { try SystemdUnits.service(for: entry(program: bad)) }
        }
    }
}
