import Foundation
import Testing
import SharedLogic
@testable import LinuxGateway

/// A whole year of the built-in scheduler on a simulated clock: Europe/Berlin with both DST
/// changes, a hand edit turning the reminder off for eleven days, two reboots (one overnight, one
/// across two mornings) and a move to New York. Expected times come from Foundation's calendar,
/// independently of notif's own time code.
@Suite struct SimulatedYearTests {
    /// `day` at `hour`:00 local time in `zone`, as ISO 8601 with offset.
    static func local(_ day: DateComponents, hour: Int, zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        var parts = day
        parts.hour = hour
        let date = calendar.date(from: parts)!
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = calendar.timeZone
        formatter.formatOptions = [.withInternetDateTime]
        let text = formatter.string(from: date)
        return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
    }

    @Test(.timeLimit(.minutes(5)))
    func oneDeliveryPerEnabledDayAtNineLocal() throws {
        let daemon = try DaemonFixture(start: "2027-01-01T00:00:00+01:00")
        // Runs until an overnight shutdown; boots before 09:00 the next day.
        let first = daemon.run(until: "2027-02-01T23:00:00+01:00")
        daemon.clock.set("2027-02-02T07:30:00+01:00")
        daemon.run(until: "2027-06-10T08:00:00+02:00", events: [
            ("2027-04-09T20:00:00+02:00", { _ = try? daemon.fixture.save { $0[.tipsAndUpdates] = false } }),
            ("2027-04-20T20:00:00+02:00", { _ = try? daemon.fixture.save { $0[.tipsAndUpdates] = true } }),
        ])
        // Off from before 09:00 on 10 June until noon on 12 June.
        daemon.clock.set("2027-06-12T12:00:00+02:00")
        daemon.run(until: "2028-01-01T00:00:00-05:00", events: [
            ("2027-11-15T12:00:00+00:00", { daemon.zone.set(systemZone("America/New_York")) }),
        ])
        // One wake a day: 1 Jan 00:00 to 1 Feb 23:00 holds 32 mornings, and the last nap ends at 23:00.
        #expect(first.napCount == 33, "\(first.napCount) naps")

        var expected: [String] = []
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = calendar.date(from: DateComponents(year: 2027, month: 1, day: 1))!
        while calendar.component(.year, from: day) == 2027 {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let (month, dayOfMonth) = (parts.month!, parts.day!)
            day = calendar.date(byAdding: .day, value: 1, to: day)!
            if month == 4 && (10...20).contains(dayOfMonth) { continue }
            if month == 6 && (10...11).contains(dayOfMonth) { continue }
            if month == 6 && dayOfMonth == 12 {
                expected.append(Self.local(parts, hour: 12, zone: "Europe/Berlin"))
                continue
            }
            let movedToNewYork = month == 12 || (month == 11 && dayOfMonth > 15)
            expected.append(Self.local(parts, hour: 9, zone: movedToNewYork ? "America/New_York" : "Europe/Berlin"))
        }
        let records = try daemon.delivered()
        let times = records.map(\.time)
        #expect(times.count == expected.count)
        #expect(times == expected, "first difference: \(zip(times, expected).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "lengths")")
        #expect(daemon.notifications == expected.count)
        // Only the day it booted at noon came late, and the record says so.
        #expect(records.filter { $0.detail.contains(" late: ") }.map(\.time) == ["2027-06-12T12:00:00+02:00"])
        // Both DST days in Berlin, and the last day in New York.
        for time in ["2027-03-28T09:00:00+02:00", "2027-10-31T09:00:00+01:00", "2027-11-15T09:00:00+01:00", "2027-11-16T09:00:00-05:00", "2027-12-31T09:00:00-05:00"] {
            #expect(times.contains(time), "\(time) missing")
        }
        #expect(Set(records.map(\.day)).count == records.count, "a day delivered twice")
    }
}
