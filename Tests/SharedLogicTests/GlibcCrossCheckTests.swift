import Foundation
import Testing
import TestSupport
@testable import SharedLogic

/// Compares `offset(at:)` and `abbreviation(at:)` with glibc's `localtime_r`, as used by `/usr/bin/date`
/// run in a child process with `TZ` set (the test process's own environment is never touched).
@Suite struct GlibcCrossCheckTests {
    struct DateFailed: Error { let status: Int32; let output: String }

    /// `date -f -` reads `@seconds` lines and prints `seconds ±hh:mm:ss abbreviation` for each.
    static func glibcLocalTimes(tz: String, instants: [Int64]) throws -> [(Int64, Int, String)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/date")
        process.arguments = ["-f", "-", "+%s %::z %Z"]
        process.environment = ["TZ": tz, "LC_ALL": "C"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let text = instants.map { "@\($0)\n" }.joined()
        // Write from another thread so a full output pipe cannot dead-lock us.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let printed = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw DateFailed(status: process.terminationStatus, output: printed) }
        return printed.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            let seconds = Int64(fields[0])!
            let offset = fields[1]
            let sign = offset.first == "-" ? -1 : 1
            let parts = offset.dropFirst().split(separator: ":").map { Int($0)! }
            return (seconds, sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]), String(fields[2]))
        }
    }

    /// A few thousand instants over 1970–2060: random ones plus both sides of every transition.
    static func instants(for zone: ZoneRules, seed: UInt64) -> [Int64] {
        let start = Int64(0)
        let end = Int64(2_871_763_200)   // 2061-01-01
        var generator = SeededRandom(seed: seed)
        var instants = (0..<2_500).map { _ in Int64.random(in: start..<end, using: &generator) }
        instants += zone.transitionTimes.filter { $0 > start && $0 < end }.flatMap { [$0 - 1, $0] }
        // Footer-computed transitions after the file's last one.
        var cursor = max(zone.transitionTimes.last ?? start, start)
        while cursor < end {
            let next = zone.switches(after: cursor, through: cursor + 200 * 86_400)
            instants += next.flatMap { [$0 - 1, $0] }
            cursor += 200 * 86_400
        }
        return instants
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata",
                      "America/St_Johns", "Pacific/Chatham"])
    func zoneFilesMatchGlibc(zoneName: String) throws {
        let zone = try TestSupport.zone(zoneName)
        let instants = Self.instants(for: zone, seed: 11)
        let glibc = try Self.glibcLocalTimes(tz: zoneName, instants: instants)
        try #require(glibc.count == instants.count)
        #expect(instants.count >= 2_500)
        var mismatches: [String] = []
        for (instant, (seconds, offset, abbreviation)) in zip(instants, glibc) {
            let ours = (zone.offset(at: Instant(seconds: instant)), zone.abbreviation(at: Instant(seconds: instant)))
            if seconds != instant || ours.0 != offset || ours.1 != abbreviation {
                mismatches.append("\(instant): glibc \(offset) \(abbreviation), ours \(ours.0) \(ours.1)")
            }
        }
        #expect(mismatches.count == 0, "\(zoneName): \(mismatches.count) mismatches, e.g. \(mismatches.prefix(3))")
    }

    @Test(arguments: ["EST5EDT,M3.2.0,M11.1.0", "AEST-10AEDT,M10.1.0,M4.1.0/3", "<+0330>-3:30",
                      "IST-2IDT,M3.4.4/26,M10.5.0", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
                      "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", "XST-1XDT,M3.5.0/9,M10.5.0/10",
                      "XST3XDT,J60/0,300/25", "<-04>4<-03>,M9.1.6/24,M4.1.6/24"])
    func posixStringsMatchGlibc(tz: String) throws {
        let zone = try #require(ZoneRules(posix: tz))
        let instants = Self.instants(for: zone, seed: 12)
        let glibc = try Self.glibcLocalTimes(tz: tz, instants: instants)
        try #require(glibc.count == instants.count)
        var mismatches: [String] = []
        for (instant, (_, offset, abbreviation)) in zip(instants, glibc) {
            let ours = (zone.offset(at: Instant(seconds: instant)), zone.abbreviation(at: Instant(seconds: instant)))
            if ours.0 != offset || ours.1 != abbreviation {
                mismatches.append("\(instant): glibc \(offset) \(abbreviation), ours \(ours.0) \(ours.1)")
            }
        }
        #expect(mismatches.count == 0, "\(tz): \(mismatches.count) mismatches, e.g. \(mismatches.prefix(3))")
    }
}
