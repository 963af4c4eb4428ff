import Testing
@testable import SharedLogic
import TestSupport

/// The system-zone times a cron line needs so that the reminder comes at 09:00 in the user's
/// zone, with zones injected (expected times written out by hand), and checked day by day.
@Suite struct SchedulerTimesTests {
    static let nine = DailyTime(hour: 9, minute: 0)
    static let start = TestSupport.utc("2026-11-30T12:00:00Z")

    func times(_ user: String, from system: String) throws -> [String] {
        SchedulerTimes.times(of: Self.nine, in: try TestSupport.zone(user), seenFrom: try TestSupport.zone(system), from: Self.start)
            .map(\.description)
    }

    @Test(arguments: [
        // user zone, system zone, the system-zone times (by hand)
        ("Asia/Kolkata", "Etc/UTC", ["03:30"]),                    // +05:30 all year
        ("America/St_Johns", "Etc/UTC", ["11:30", "12:30"]),        // -02:30 summer, -03:30 winter
        ("Europe/Berlin", "Etc/UTC", ["07:00", "08:00"]),           // CEST, CET
        ("Europe/Berlin", "Europe/Berlin", ["09:00"]),              // the same zone
        ("Europe/Berlin", "Europe/Paris", ["09:00"]),               // the same rules
        ("Europe/Berlin", "America/New_York", ["03:00", "04:00"]),  // 6 h apart, 5 h for a few weeks a year
        ("Asia/Kolkata", "America/New_York", ["22:30", "23:30"]),   // the day before, in New York
        ("Australia/Lord_Howe", "Etc/UTC", ["22:00", "22:30"]),     // half-hour daylight saving
        ("Etc/UTC", "Asia/Kolkata", ["14:30"]),
    ])
    func theTimesAreTheUsersNineSeenFromTheSystemZone(user: String, system: String, expected: [String]) throws {
        #expect(try times(user, from: system) == expected)
    }

    /// Every day of the horizon, the system-zone time of that day's 09:00 is one of the lines, and
    /// every line is 09:00 on some day: no line missing, none useless.
    @Test(arguments: [("Europe/Berlin", "Etc/UTC"), ("America/St_Johns", "Etc/UTC"), ("Europe/Berlin", "America/New_York"),
                      ("Australia/Lord_Howe", "Europe/London"), ("America/Santiago", "Europe/Berlin")])
    func dayByDayEveryNineIsOnALineAndEveryLineIsUsed(user: String, system: String) throws {
        let userZone = try TestSupport.zone(user), systemZone = try TestSupport.zone(system)
        let lines = Set(SchedulerTimes.times(of: Self.nine, in: userZone, seenFrom: systemZone, from: Self.start))
        var used = Set<DailyTime>()
        var now = Self.start
        for _ in 0..<Int(SchedulerTimes.horizonDays - 1) {
            let fire = ReminderClock.nextFire(of: Self.nine, after: now, in: userZone)
            let local = systemZone.localDateTime(of: fire)
            let time = DailyTime(hour: local.hour, minute: local.minute)
            #expect(lines.contains(time), "\(user) from \(system): 09:00 at \(time) on \(local.date) has no line in \(lines)")
            used.insert(time)
            now = fire
        }
        #expect(used == lines, "\(user) from \(system)")
    }

    /// A POSIX TZ rule works like a named zone (what a user may set TZ to).
    @Test func aPosixRuleSeenFromUTC() throws {
        let user = try #require(ZoneRules(posix: "EST5EDT,M3.2.0,M11.1.0"))
        #expect(SchedulerTimes.times(of: Self.nine, in: user, seenFrom: .utc, from: Self.start).map(\.description) == ["13:00", "14:00"])
        let shifted = try #require(ZoneRules(posix: "NTF-5:37"))
        #expect(SchedulerTimes.times(of: Self.nine, in: shifted, seenFrom: .utc, from: Self.start).map(\.description) == ["03:23"])
    }

    /// A zone whose daylight time begins at 09:00 (Y1): that day 09:00 is skipped and the first
    /// moment after the jump is 10:00 daylight time, which is the standard half's system time;
    /// the daylight half's 09:00 still needs its own line (it had none: the switch day's firing
    /// stood for the whole stretch). A gap over 09:00 gives its end a time of its own, also seen
    /// from the zone itself (systemd skips a calendar time a gap leaves out); 09:00 twice, once.
    @Test func daylightTimeBeginningAtNineKeepsBothHalvesAndAGapEndIsATime() throws {
        let y1 = try #require(ZoneRules(posix: "YST-1YDT,M3.5.0/9,M10.5.0/3"))
        #expect(SchedulerTimes.times(of: Self.nine, in: y1, seenFrom: .utc, from: Self.start).map(\.description) == ["07:00", "08:00"])
        #expect(SchedulerTimes.times(of: Self.nine, in: y1, seenFrom: y1, from: Self.start).map(\.description) == ["09:00", "10:00"])
        let half = try #require(ZoneRules(posix: "HST-1HDT-1:30,M3.5.0/8:50,M10.5.0/3"))
        #expect(SchedulerTimes.times(of: Self.nine, in: half, seenFrom: half, from: Self.start).map(\.description) == ["09:00", "09:20"])
        let twice = try #require(ZoneRules(posix: "TST-1TDT,M3.5.0/2,M10.5.0/10"))
        #expect(SchedulerTimes.times(of: Self.nine, in: twice, seenFrom: twice, from: Self.start).map(\.description) == ["09:00"])
        // Day by day from UTC, every 09:00 (or the first moment after a gap) is on a line.
        for zone in [y1, half] {
            let lines = Set(SchedulerTimes.times(of: Self.nine, in: zone, seenFrom: .utc, from: Self.start))
            var now = Self.start
            for _ in 0..<800 {
                let fire = ReminderClock.nextFire(of: Self.nine, after: now, in: zone)
                let local = ZoneRules.utc.localDateTime(of: fire)
                #expect(lines.contains(DailyTime(hour: local.hour, minute: local.minute)), "\(local) not in \(lines)")
                now = fire
            }
        }
    }

    /// Debian's cron runs no fixed-time line while the system clock repeats an hour: when the
    /// user's 09:00 comes in the second pass of that hour, the entry needs a run with `*` in
    /// the hour field on those days, a minute later (expected days and minute by hand).
    @Test(arguments: [
        // user zone, system zone, the runs (minute, month, days)
        // 09:00 CST = 01:00 UTC = 02:00 CET, the start of the second pass (last Sunday of October)
        ("Asia/Shanghai", "Europe/Berlin", [RepeatedHourRun(minute: 1, month: 10, days: Array(25...31))]),
        ("Asia/Tokyo", "America/New_York", []),                      // 09:00 JST = 19:00 / 20:00 the day before
        ("Europe/Berlin", "Etc/UTC", []),                            // UTC never falls back
        ("Europe/Berlin", "Europe/Berlin", []),                      // 09:00 is far from 02:00
        ("Asia/Kolkata", "Asia/Shanghai", []),                       // no daylight saving
        ("America/Chicago", "America/New_York", []),                 // 09:00 CST/CDT is 10:00 EST/EDT
    ])
    func runsInTheRepeatedHour(user: String, system: String, expected: [RepeatedHourRun]) throws {
        let runs = SchedulerTimes.repeatedHourRuns(of: Self.nine, in: try TestSupport.zone(user), seenFrom: try TestSupport.zone(system), from: Self.start)
        #expect(runs == expected, "\(user) from \(system)")
    }

    /// A user's 09:00 in the first pass of the repeated hour needs nothing more (cron runs that
    /// one), in the second pass it does; POSIX TZ rules count like named zones.
    @Test func onlyTheSecondPassNeedsARun() throws {
        let newYork = try TestSupport.zone("America/New_York")
        // New York falls back at 06:00 UTC (02:00 EDT -> 01:00 EST), first Sunday of November.
        let first = try #require(ZoneRules(posix: "XAA-3"))       // 09:00 = 06:00 UTC = 01:00 EST: the switch itself
        #expect(SchedulerTimes.repeatedHourRuns(of: Self.nine, in: first, seenFrom: newYork, from: Self.start)
                == [RepeatedHourRun(minute: 1, month: 11, days: Array(1...7))])
        let earlier = try #require(ZoneRules(posix: "XAA-2:30"))   // 09:00 = 06:30 UTC = 01:30 EST: second pass
        #expect(SchedulerTimes.repeatedHourRuns(of: Self.nine, in: earlier, seenFrom: newYork, from: Self.start)
                == [RepeatedHourRun(minute: 31, month: 11, days: Array(1...7))])
        let before = try #require(ZoneRules(posix: "XAA-3:30"))   // 09:00 = 05:30 UTC = 01:30 EDT: first pass
        #expect(SchedulerTimes.repeatedHourRuns(of: Self.nine, in: before, seenFrom: newYork, from: Self.start).isEmpty)
        let after = try #require(ZoneRules(posix: "XAA-2"))       // 09:00 = 07:00 UTC = 02:00 EST: after it
        #expect(SchedulerTimes.repeatedHourRuns(of: Self.nine, in: after, seenFrom: newYork, from: Self.start).isEmpty)
    }

    @Test func listsReadAsWords() {
        #expect(SchedulerTimes.list([DailyTime(hour: 3, minute: 30)]) == "03:30")
        #expect(SchedulerTimes.list([DailyTime(hour: 7, minute: 0), DailyTime(hour: 8, minute: 0)]) == "07:00 and 08:00")
        #expect(SchedulerTimes.list([DailyTime(hour: 1, minute: 0), DailyTime(hour: 2, minute: 0), DailyTime(hour: 3, minute: 0)]) == "01:00, 02:00 and 03:00")
    }
}

/// A scheduled run shows the reminder only at its time in the user's zone (up to 30 minutes
/// late): the other runs of an entry (the other half of the year) do nothing and record nothing.
@Suite struct DeliveryTimeWindowTests {
    let tips = LocalReminders.tipsAndUpdates
    var on: NotificationPreferences { .tipsOnAndAllowed }

    func decide(_ kind: DeliveryKind, _ now: String, in zone: String, last: CivilDate? = nil) throws -> DeliveryDecision {
        DeliveryDecision.decide(tips, kind: kind, preferences: on, lastDelivered: last, now: TestSupport.utc(now), zone: try TestSupport.zone(zone))
    }

    @Test(arguments: [
        // Berlin from a UTC cron: 07:00 and 08:00 UTC lines
        ("2026-12-01T07:00:00Z", "Europe/Berlin", false),  // winter: 08:00 CET, the summer line
        ("2026-12-01T08:00:01Z", "Europe/Berlin", true),   // winter: 09:00 CET
        ("2026-07-01T07:00:00Z", "Europe/Berlin", true),   // summer: 09:00 CEST
        ("2026-07-01T08:00:00Z", "Europe/Berlin", false),  // summer: 10:00 CEST, the winter line
        ("2026-03-29T07:00:00Z", "Europe/Berlin", true),   // the first CEST day
        ("2026-03-28T07:00:00Z", "Europe/Berlin", false),  // the last CET day: 08:00
        ("2026-10-25T08:00:00Z", "Europe/Berlin", true),   // the first CET day
        ("2026-10-24T08:00:00Z", "Europe/Berlin", false),  // the last CEST day: 10:00
        ("2026-12-01T03:30:00Z", "Asia/Kolkata", true),    // +05:30
        ("2026-12-01T12:30:00Z", "America/St_Johns", true),   // -03:30
        ("2026-12-01T11:30:00Z", "America/St_Johns", false),  // 08:00 NST
        ("2026-12-01T08:29:59Z", "Europe/Berlin", true),   // 29:59 late: still the run
        ("2026-12-01T08:30:00Z", "Europe/Berlin", false),  // 30 minutes late: not
        ("2026-12-01T07:59:59Z", "Europe/Berlin", false),  // a second early
    ])
    func aScheduledRunDeliversOnlyAtNineInTheUsersZone(now: String, zone: String, delivers: Bool) throws {
        let decision = try decide(.scheduled, now, in: zone)
        if delivers {
            #expect(decision == .deliver, "\(now) \(zone)")
        } else {
            guard case .notTheTime(let why) = decision else {
                Issue.record("\(now) \(zone): \(decision)")
                return
            }
            #expect(why.contains("in \(zone), not 09:00"), "\(why)")
        }
    }

    @Test func onTimeButAlreadyShownOrOffIsAnOrdinarySkip() throws {
        let today = CivilDate(year: 2026, month: 12, day: 1)
        #expect(try decide(.scheduled, "2026-12-01T08:00:00Z", in: "Europe/Berlin", last: today) == .skip("already delivered today (2026-12-01)"))
        // A catch-up keeps its rule: any time after 09:00, once.
        #expect(try decide(.catchUp, "2026-12-01T15:00:00Z", in: "Europe/Berlin") == .deliver)
        #expect(try decide(.catchUp, "2026-12-01T07:00:00Z", in: "Europe/Berlin") == .skip("not due yet today (due 09:00)"))
    }
}
