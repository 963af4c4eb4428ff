import Foundation
import Testing
import SharedLogic
@testable import Storage

/// `SystemTimeZone` is given the `TZ` value directly, so no test changes the process environment.
@Suite struct SystemTimeZoneTests {
    static let january = Instant(seconds: 1_768_478_400)   // 2026-01-15T12:00:00Z
    static let july = Instant(seconds: 1_784_116_800)      // 2026-07-15T12:00:00Z

    @Test func zoneName() {
        let zone = SystemTimeZone.current(environment: "America/New_York")
        #expect(zone.name == "America/New_York")
        #expect(zone.offset(at: Self.january) == -5 * 3600)
        #expect(zone.offset(at: Self.july) == -4 * 3600)
        #expect(zone.abbreviation(at: Self.january) == "EST")
    }

    /// A TZ that names no zone is UTC, as glibc makes it, and notif says so naming the value;
    /// every TZ that does name one (a file, a path, a POSIX rule, empty for UTC) says nothing.
    @Test func aTZThatNamesNoZoneIsAProblemNamingIt() {
        for fine in [nil, "", ":", "UTC", "Europe/Berlin", ":Europe/Berlin", "/usr/share/zoneinfo/Asia/Kolkata", "EST5EDT,M3.2.0,M11.1.0", "NTF-5:37"] {
            #expect(SystemTimeZone.problem(environment: fine) == nil, "\(fine ?? "unset")")
        }
        for bad in ["Nowhere/Zone", "Europe", "Europe/Berlinn", "../etc/passwd"] {
            let problem = SystemTimeZone.problem(environment: bad)
            #expect(problem?.hasPrefix("TZ=\(bad) is not a time zone notif can find") == true && problem?.contains("times are in UTC") == true,
                    "\(bad): \(problem ?? "nil")")
            #expect(SystemTimeZone.current(environment: bad).offset(at: Self.july) == 0, "\(bad) is UTC")
        }
        #expect(SystemTimeZone.problem(environment: "Bad\u{1B}[2J") == "TZ=Bad\\u{1B}[2J is not a time zone notif can find (no such zone file, and not a POSIX TZ rule): times are in UTC; set TZ to a zone such as Europe/Berlin, or unset it for the system zone")
    }

    @Test func leadingColonIsDropped() {
        let zone = SystemTimeZone.current(environment: ":Europe/Berlin")
        #expect(zone.name == "Europe/Berlin")
        #expect(zone.offset(at: Self.january) == 3600)
        #expect(zone.offset(at: Self.july) == 7200)
    }

    @Test func absolutePath() {
        let zone = SystemTimeZone.current(environment: "/usr/share/zoneinfo/Asia/Kolkata")
        #expect(zone.offset(at: Self.january) == 19_800)
        let withColon = SystemTimeZone.current(environment: ":/usr/share/zoneinfo/Australia/Sydney")
        #expect(withColon.offset(at: Self.january) == 11 * 3600)
    }

    @Test func posixString() {
        let zone = SystemTimeZone.current(environment: "EST5EDT,M3.2.0,M11.1.0")
        #expect(zone.name == "EST5EDT,M3.2.0,M11.1.0")
        #expect(zone.offset(at: Self.january) == -5 * 3600)
        #expect(zone.offset(at: Self.july) == -4 * 3600)
        #expect(SystemTimeZone.current(environment: "<+0330>-3:30").offset(at: Self.july) == 12_600)
    }

    @Test func fileTakesPrecedenceOverPosixReading() {
        // tzdata ships a file named EST5EDT; like glibc, the file wins (it carries pre-2007 US history).
        let zone = SystemTimeZone.current(environment: "EST5EDT")
        // 2000-03-20T12:00:00Z: still EST under the pre-2007 rules, but EDT under the current ones.
        let march2000 = Instant(seconds: 953_553_600)
        #expect(zone.offset(at: march2000) == -5 * 3600)
        #expect(ZoneRules(posix: "EST5EDT")?.offset(at: march2000) == -4 * 3600)
    }

    @Test func emptyIsUTC() {
        #expect(SystemTimeZone.current(environment: "") == .utc)
        #expect(SystemTimeZone.current(environment: ":") == .utc)
    }

    @Test func bogusNamesFallBackToUTC() {
        for name in ["Bogus/Zone", "Nowhere", "America/New_Yorkk", "/nonexistent/file", "/usr/share/zoneinfo"] {
            #expect(SystemTimeZone.current(environment: name) == .utc, "\(name)")
        }
    }

    @Test func parentDirectoryNamesAreRefused() {
        let sneaky = "../zoneinfo/America/New_York"
        // The file exists, so only the ".." rule keeps it out.
        #expect(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + sneaky))
        #expect(SystemTimeZone.zoneFilePath(for: sneaky, zoneInfoDirectory: nil) == nil)
        #expect(SystemTimeZone.current(environment: sneaky) == .utc)
        #expect(SystemTimeZone.current(environment: "America/../America/New_York") == .utc)
    }

    @Test func zoneInfoDirectory() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("notif-tzdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Test"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let berlin = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin"))
        try berlin.write(to: directory.appendingPathComponent("Test/Zone"))
        let zone = SystemTimeZone.current(environment: "Test/Zone", zoneInfoDirectory: directory.path)
        #expect(zone.name == "Test/Zone")
        #expect(zone.offset(at: Self.july) == 7200)
        // Without that directory the name means nothing.
        #expect(SystemTimeZone.current(environment: "Test/Zone") == .utc)
        // An empty TZDIR means the default directory.
        #expect(SystemTimeZone.current(environment: "Europe/Berlin", zoneInfoDirectory: "").offset(at: Self.july) == 7200)
    }

    @Test func unreadableOrOversizedFiles() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("notif-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage")
        try Data("not a zone file".utf8).write(to: garbage)
        #expect(SystemTimeZone.current(environment: garbage.path) == .utc)
        // A valid zone padded past 1 MiB is refused by size alone.
        var big = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Asia/Kolkata"))
        #expect(SystemTimeZone.readZoneFile("/usr/share/zoneinfo/Asia/Kolkata", name: "Asia/Kolkata") != nil)
        big.append(Data(count: (1 << 20) + 1))
        let bigFile = directory.appendingPathComponent("big")
        try big.write(to: bigFile)
        #expect(SystemTimeZone.readZoneFile(bigFile.path, name: "big") == nil)
        #expect(SystemTimeZone.current(environment: bigFile.path) == .utc)
        #expect(SystemTimeZone.readZoneFile(directory.path, name: "dir") == nil)
    }

    @Test func unsetUsesEtcLocaltime() throws {
        let zone = SystemTimeZone.current(environment: nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "/etc/localtime"))
        let direct = try ZoneRules(tzif: [UInt8](bytes), name: zone.name)
        #expect(zone == direct)
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let range = target.range(of: "zoneinfo/") {
            #expect(zone.name == String(target[range.upperBound...]))
        }
    }

    @Test func processEnvironmentConvenience() {
        let environment = ProcessInfo.processInfo.environment
        #expect(SystemTimeZone.current()
                == SystemTimeZone.current(environment: environment["TZ"], zoneInfoDirectory: environment["TZDIR"]))
    }
}
