import Foundation
import Testing
import SharedLogic
import Storage
@testable import LinuxGateway

/// A service fixture on the built-in scheduler with a simulated clock, and a way to run the
/// real daemon loop over it (real entry files, real delivery bookkeeping; the desktop recorded).
struct DaemonFixture {
    var fixture: ServiceFixture
    let clock: ManualClock
    let zone: ZoneBox

    init(start: String, zone: String = "Europe/Berlin") throws {
        fixture = ServiceFixture()
        clock = ManualClock(start)
        self.zone = ZoneBox(systemZone(zone))
        fixture.clock = clock
        fixture.zone = self.zone.current
        fixture.scheduler = .embedded
        fixture.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:abstract=/tmp/notif-test-bus"
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let outcome = try fixture.service.apply()
        guard outcome.succeeded else { throw TestFailure("apply: \(outcome.report)") }
    }

    var service: ReminderService {
        var copy = fixture
        copy.zone = zone.current
        return copy.service
    }

    /// Runs the daemon from the clock's time until `end`, with `events` happening on the way.
    @discardableResult
    func run(until end: String, events: [(String, () -> Void)] = [], log: @escaping (String) -> Void = { _ in }) -> SimulatedSleeper {
        let sleeper = SimulatedSleeper(clock: clock, until: ISO8601.parse(end)!,
                                       events: events.map { (ISO8601.parse($0.0)!, $0.1) })
        let zone = self.zone
        let daemon = EmbeddedDaemon(context: fixture.context, zone: { zone.current }, sleeper: sleeper, log: log)
        daemon.settlingTime = 0.05
        daemon.run()
        return sleeper
    }

    /// Delivered records, oldest first.
    func delivered() throws -> [DeliveryRecord] {
        try fixture.service.context.deliveryLog.newest(100_000).reversed().filter { $0.outcome == .delivered }
    }

    var notifications: Int { fixture.notifications }
}

@Suite struct EmbeddedDaemonTests {
    /// A waiter that ended without sending the reminder (killed: no record, no waiter) leaves it
    /// due: the daemon's next wake (a waiter's end is one) sends it, once, and a run that keeps
    /// failing is tried again at most once a minute, never in a loop.
    @Test func aReminderWhoseWaiterEndedIsSentAtTheNextWake() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:50:00+01:00")
        let desktop = daemon.fixture.desktop
        desktop.answer = .waiting("the user bus: no notification service runs")
        daemon.run(until: "2026-12-01T11:00:00+01:00", events: [
            ("2026-12-01T09:05:00+01:00", {}),                                   // the waiter killed
            ("2026-12-01T09:05:20+01:00", { desktop.answer = .shown("through the user bus as notification 7") }),
            ("2026-12-01T10:00:00+01:00", {}),                                   // a later wake
        ])
        // 09:00 (the time), 09:05 (a wake, no waiter), 09:06 (a minute after 09:05, not at 09:05:20).
        #expect(desktop.handOffs.count == 3, "\(desktop.handOffs)")
        let delivered = try daemon.delivered()
        #expect(delivered.map(\.time) == ["2026-12-01T09:06:00+01:00"], "\(delivered)")
    }

    /// settings.json written with a mistake (in place, as an editor saves), or gone: the daemon
    /// keeps the schedule as it is and says why once; a later good write is acted on.
    @Test func aSettingsFileThatDoesNotParseKeepsTheSchedule() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T07:00:00+01:00")
        let path = daemon.fixture.service.context.store.settingsPath
        let entries = EmbeddedScheduler(paths: daemon.fixture.scratch.paths, owner: daemon.fixture.service.context.configuration)
        final class Lines: @unchecked Sendable { var all: [String] = [] }
        let log = Lines()
        var heldAtNine: [EmbeddedEntry] = []
        let bad = "{\"tipsAndUpdates\": false,}"
        daemon.run(until: "2026-12-01T08:59:00+01:00", events: [
            ("2026-12-01T07:10:00+01:00", { try? bad.write(toFile: path, atomically: false, encoding: .utf8) }),
            ("2026-12-01T07:20:00+01:00", { try? bad.write(toFile: path, atomically: false, encoding: .utf8) }),
            ("2026-12-01T07:30:00+01:00", { try? FileManager.default.removeItem(atPath: path) }),
            ("2026-12-01T08:58:00+01:00", { heldAtNine = (try? entries.entries()) ?? [] }),
        ], log: { log.all.append($0) })
        #expect(heldAtNine.map(\.id) == ["tips-and-updates"], "the schedule is kept: \(log.all)")
        let said = log.all.filter { $0.hasPrefix("settings not used: ") }
        #expect(said == ["settings not used: \(path) line 1, column 25: a comma before } — remove it; the built-in schedule is kept as it is",
                         "settings not used: \(path) is not there; the built-in schedule is kept as it is"], "\(log.all)")
        #expect(!log.all.contains { $0.contains("cancelled") })
        // A good write that says so turns it off.
        daemon.run(until: "2026-12-01T09:30:00+01:00", events: [
            ("2026-12-01T09:05:00+01:00", { try? "{\"tipsAndUpdates\": false}".write(toFile: path, atomically: false, encoding: .utf8) }),
        ], log: { log.all.append($0) })
        #expect(log.all.contains("settings changed: tips-and-updates cancelled"), "\(log.all)")
        #expect(try entries.entries().isEmpty)
    }

    /// The trial's case: settings.json has a mistake at 09:00 (that run cannot read it), and is
    /// mended at 09:10: the reminder is shown then, once, and not again that day.
    @Test func aSettingsFileMendedAfterNineStillBringsThatDaysReminder() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:50:00+01:00")
        let path = daemon.fixture.service.context.store.settingsPath
        let good = try #require(FileManager.default.contents(atPath: path))
        daemon.run(until: "2026-12-01T12:00:00+01:00", events: [
            ("2026-12-01T08:59:00+01:00", { try? "{\"tipsAndUpdates\": true,}".write(toFile: path, atomically: false, encoding: .utf8) }),
            ("2026-12-01T09:10:00+01:00", { try? good.write(to: URL(fileURLWithPath: path)) }),
            ("2026-12-01T10:00:00+01:00", { try? good.write(to: URL(fileURLWithPath: path)) }),
        ])
        let log = try daemon.fixture.service.context.deliveryLog.newest(100).reversed().map { "\($0.time) \($0.outcome.rawValue)" }
        #expect(log == ["2026-12-01T09:00:00+01:00 failed", "2026-12-01T09:10:00+01:00 delivered"], "\(log)")
        #expect(daemon.notifications == 1)
        // The record says why it came late: the 09:00 run's failure, not a guess.
        let shown = try daemon.fixture.service.context.deliveryLog.newest(1).first?.detail ?? ""
        #expect(shown.hasPrefix("sent 09:10, 10 min late: the run at 09:00 failed: cannot read settings: "), "\(shown)")
    }

    /// An entry written with TZ set keeps that zone: a daemon started in another zone (at a
    /// login without that TZ, or with another: trial 40, D1) still shows the reminder at 09:00
    /// in the entry's zone, and its own reconcile writes it in that zone too.
    @Test(arguments: [nil, "America/St_Johns"])
    func anEntryWrittenWithTZFiresAtNineInThatZone(daemonTZ: String?) throws {
        var daemon = try DaemonFixture(start: "2026-11-30T20:00:00+05:30", zone: "Europe/Berlin")
        daemon.fixture.environment["TZ"] = "Asia/Kolkata"
        daemon.fixture.zone = systemZone("Asia/Kolkata")
        #expect(try daemon.fixture.service.apply().succeeded)
        #expect(try EmbeddedScheduler(paths: daemon.fixture.scratch.paths, owner: daemon.fixture.service.context.configuration).entries()
            == [EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0), zone: "Asia/Kolkata")])
        let key = "tips-and-updates." + daemon.fixture.service.context.configuration.tag
        // The entry began with the fixture's first apply, in Berlin (20:00 in Kolkata); rewritten for TZ, it keeps that.
        #expect(daemon.fixture.service.context.state.entrySince()[key]?.text == "2026-11-30T15:30:00+01:00")
        daemon.fixture.environment["TZ"] = daemonTZ
        daemon.run(until: "2026-12-02T12:00:00+05:30")
        // At its start (20:00 there) nothing was missed (the entry was written at 20:00), then
        // 09:00 each day, in Kolkata.
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T09:00:00+05:30", "2026-12-02T09:00:00+05:30"])
        #expect(try EmbeddedScheduler(paths: daemon.fixture.scratch.paths, owner: daemon.fixture.service.context.configuration).entries().map(\.zone)
            == ["Asia/Kolkata"])
    }

    /// Turned on at 14:00: a daemon started then (or at a login, or after a clock jump or a zone
    /// change that day) has nothing to catch up; the first reminder is tomorrow's 09:00.
    @Test func anEntryWrittenAfterNineCatchesNothingUpThatDay() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T14:00:00+01:00")
        daemon.run(until: "2026-12-02T12:00:00+01:00", events: [
            ("2026-12-01T15:00:00+01:00", { daemon.clock.advance(-2 * 3600) }),         // the clock set back to 13:00
            ("2026-12-01T19:00:00+01:00", { daemon.zone.set(systemZone("Asia/Kolkata")) }),  // 23:30 there
            ("2026-12-01T19:30:00+01:00", { daemon.zone.set(systemZone("Europe/Berlin")) }),
        ])
        // A restart the same evening: still nothing.
        daemon.clock.set("2026-12-01T21:00:00+01:00")
        daemon.run(until: "2026-12-01T22:00:00+01:00")
        // Start, clock jump, two zone changes, restart: five wakes, none an attempt, none recorded.
        #expect(try daemon.fixture.service.context.deliveryLog.newest(100).map(\.time) == ["2026-12-02T09:00:00+01:00"])
    }

    /// Written at 08:30 and the machine off over 09:00: the daemon started at 14:00 shows it.
    @Test func anEntryWrittenBeforeNineIsCaughtUpLaterThatDay() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:30:00+01:00")
        daemon.clock.set("2026-12-01T14:00:00+01:00")
        daemon.run(until: "2026-12-02T12:00:00+01:00")
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T14:00:00+01:00", "2026-12-02T09:00:00+01:00"])
        #expect(try daemon.delivered().first?.detail.hasPrefix("sent 14:00, 5 h late: the first run since 09:00") == true)
    }

    /// An entry without a record of when it began (one of an earlier notif) is caught up as before.
    @Test func anEntryThatDoesNotSayWhenItBeganIsCaughtUpAsBefore() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T14:00:00+01:00")
        try daemon.fixture.service.context.state.remove(StateFiles.entrySinceFile)
        let schedule = EmbeddedScheduler(paths: daemon.fixture.scratch.paths, owner: daemon.fixture.service.context.configuration)
        try AtomicFile.write(Array(EmbeddedEntry(id: "tips-and-updates", time: DailyTime(hour: 9, minute: 0)).text.utf8),
                             to: schedule.path("tips-and-updates", tag: daemon.fixture.service.context.configuration.tag))
        daemon.run(until: "2026-12-01T16:00:00+01:00")
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T14:00:00+01:00"])
    }

    @Test func firesAtNineOncePerDayAndARestartDoesNotRepeatIt() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        let sleeper = daemon.run(until: "2026-12-01T10:00:00+01:00")
        // It sleeps straight to 09:00 (one nap), then towards the next 09:00 (cut off at 10:00).
        #expect(sleeper.napCount == 2 && sleeper.longestNap == 3600, "\(sleeper.napCount) naps, longest \(sleeper.longestNap) s")
        // The restart at 10:00 wakes deliver: shown today already, so nothing, and no record.
        daemon.run(until: "2026-12-03T12:00:00+01:00")
        let times = try daemon.delivered().map(\.time)
        #expect(times == ["2026-12-01T09:00:00+01:00", "2026-12-02T09:00:00+01:00", "2026-12-03T09:00:00+01:00"])
        #expect(try daemon.delivered().map(\.kind) == [.scheduled, .scheduled, .scheduled])
        #expect(daemon.notifications == 3)
        #expect(try daemon.fixture.service.context.deliveryLog.newest(100).count == 3)
    }

    @Test func aForwardJumpOfThreeDaysCatchesUpOnceAndOnlyTheSameDay() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        daemon.run(until: "2026-12-05T12:00:00+01:00", events: [
            ("2026-12-01T15:00:00+01:00", { daemon.clock.advance(3 * 86_400) }),
        ])
        let records = try daemon.delivered()
        #expect(records.map(\.day.description) == ["2026-12-01", "2026-12-04", "2026-12-05"])
        #expect(records[1].time.hasPrefix("2026-12-04T15:0") && records[1].detail.contains("6 h late"), "\(records[1])")
        #expect(records[2].time == "2026-12-05T09:00:00+01:00")
    }

    @Test func aJumpLandingBeforeNineWaitsForNine() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        daemon.run(until: "2026-12-04T12:00:00+01:00", events: [
            ("2026-12-01T20:00:00+01:00", { daemon.clock.advance(2 * 86_400 + 12 * 3600) }),
        ])
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T09:00:00+01:00", "2026-12-04T09:00:00+01:00"])
    }

    @Test func aBackwardJumpOverNineDoesNotDeliverTwice() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        daemon.run(until: "2026-12-01T12:00:00+01:00", events: [
            ("2026-12-01T10:00:00+01:00", { daemon.clock.advance(-2 * 3600) }),
        ])
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T09:00:00+01:00"])
        #expect(daemon.notifications == 1)
    }

    @Test func aZoneChangeMovesTheReminderToNineInTheNewZone() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        daemon.run(until: "2026-12-03T00:00:00-05:00", events: [
            ("2026-12-01T12:00:00+01:00", { daemon.zone.set(systemZone("America/New_York")) }),
        ])
        // 1 Dec was already delivered in Berlin; from 2 Dec on at 09:00 New York time.
        #expect(try daemon.delivered().map(\.time) == ["2026-12-01T09:00:00+01:00", "2026-12-02T09:00:00-05:00"])
    }

    @Test func settingsTurnedOffWhileItSleepsStopTheReminder() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        // An edit of settings.json with no `notif apply`: the daemon reconciles its own schedule.
        daemon.run(until: "2026-12-02T12:00:00+01:00", events: [
            ("2026-12-01T08:30:00+01:00", { _ = try? daemon.fixture.save { $0[.tipsAndUpdates] = false } }),
        ])
        #expect(try daemon.delivered().isEmpty)
        #expect(try EmbeddedScheduler(paths: daemon.fixture.scratch.paths, owner: daemon.fixture.service.context.configuration).installed().isEmpty)
        // Turned on again by hand: the entry comes back and fires at the next 09:00.
        daemon.run(until: "2026-12-03T12:00:00+01:00", events: [
            ("2026-12-02T12:30:00+01:00", { _ = try? daemon.fixture.save { $0[.tipsAndUpdates] = true } }),
        ])
        #expect(try daemon.delivered().map(\.time) == ["2026-12-03T09:00:00+01:00"])
    }

    @Test func anEntryLeftBehindDeliversNothing() throws {
        let daemon = try DaemonFixture(start: "2026-12-01T08:00:00+01:00")
        // Not the recorded scheduler any more, so the daemon leaves the entry; delivery re-checks the settings.
        try daemon.fixture.service.context.state.remove(daemon.fixture.service.schedulerRecord)
        daemon.run(until: "2026-12-01T10:00:00+01:00", events: [
            ("2026-12-01T08:30:00+01:00", { _ = try? daemon.fixture.save { $0[.pushNotifications] = false } }),
        ])
        #expect(try daemon.delivered().isEmpty && daemon.notifications == 0)
        let log = try daemon.fixture.service.context.deliveryLog.newest(10)
        #expect(log.first?.detail == "Push Notifications is off")
    }
}
