import Foundation
import SharedLogic
import Storage
import TestSupport
import Testing
@testable import LinuxGateway

/// A reminder added as one table entry (`LongerTable`: weekly, Mondays at 10:00, on its own toggle) reaches
/// every scheduler and `deliver` through the reminder value alone: the cron line's day-of-week
/// field, systemd's `Mon *-*-* 10:00:00` (checked by systemd-analyze), the built-in entry and the
/// daemon's next firing, `deliver` on that weekday only, `apply` installing and cancelling it, and
/// settings.json and `status --json` holding its toggle.
@Suite struct WeeklyReminderTests {
    static let weekly = LongerTable.reminder
    static let table = LongerTable.catalog.reminders

    func on(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0[LongerTable.toggle] = true; $0.permission = .granted }
    }

    @Test func cronGetsTheDayOfWeekFieldAlsoSeenFromAnotherZone() throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        let entry = try fixture.service.entry(for: Self.weekly)
        let cron = try #require(fixture.service.gateway(for: .cron))
        let line = try cron.render(entry)
        #expect(line.contains("\n0 10 * * 1 "), "\(line)")
        // A user in Tokyo (+09:00) seen from a UTC cron: Monday 10:00 there is Monday 01:00 here.
        fixture.environment = ["TZ": "Asia/Tokyo"]
        fixture.zone = systemZone("Asia/Tokyo")
        let tokyo = try #require(fixture.service.gateway(for: .cron)).render(try fixture.service.entry(for: Self.weekly))
        #expect(tokyo.contains("\n0 1 * * 1 "), "\(tokyo)")
        // Monday 02:00 in Tokyo is Sunday 17:00 in UTC: the day moves with the time.
        let early = LocalReminder(id: "early", title: "Early", body: "b", time: DailyTime(hour: 2, minute: 0),
                                  recurrence: .weekly(.monday), preference: .promotions)
        let sunday = try #require(fixture.service.gateway(for: .cron)).render(try fixture.service.entry(for: early))
        #expect(sunday.contains("\n0 17 * * 0 "), "\(sunday)")
    }

    @Test func systemdTimersPassVerifyAndFireOnMondays() throws {
        let fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        let entry = try fixture.service.entry(for: Self.weekly)
        let calendars = SystemdUnits.calendars(for: entry, systemZone: .utc, now: fixture.clock.now())
        #expect(calendars == ["Mon *-*-* 10:00:00"])
        let dir = fixture.scratch.path + "/units"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let owner = fixture.service.context.configuration
        let timer = dir + "/" + SystemdUnits.timerName(Self.weekly.id, tag: owner.tag)
        let service = dir + "/" + SystemdUnits.serviceName(Self.weekly.id, tag: owner.tag)
        try SystemdUnits.timer(for: entry, owner: owner, calendars: calendars).write(toFile: timer, atomically: true, encoding: .utf8)
        // The service names a program that must exist for verify.
        let program = fixture.scratch.path + "/bin/notif"
        try SystemdUnitFilesTests.program(at: program)
        let runnable = ScheduledEntry(reminder: Self.weekly, command: [program, "deliver", Self.weekly.id],
                                      catchUpCommand: [program, "deliver", "--catch-up", Self.weekly.id])
        try SystemdUnits.service(for: runnable).write(toFile: service, atomically: true, encoding: .utf8)
        let verified = try SystemdUnitFilesTests.verify([timer, service], scratch: fixture.scratch)
        #expect(verified.exitStatus == 0 && verified.stderr.isEmpty, "\(verified.failureSummary)")
        // Tue 1 Dec 2026: the next elapses are the Mondays 7 and 14 Dec at 10:00.
        let elapses = try SystemdUnitFilesTests.elapses(calendars[0], from: "2026-12-01 09:00:00", count: 2)
        #expect(elapses == ["2026-12-07 10:00:00 UTC", "2026-12-14 10:00:00 UTC"], "\(elapses)")
        #expect(try String(contentsOfFile: timer, encoding: .utf8).contains("Description=notif reminder: Weekly review, every Monday at 10:00 local time"))
    }

    @Test func theBuiltInEntryKeepsItsDayAndTheDaemonWaitsForMonday() throws {
        let fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        let text = try EmbeddedScheduler(paths: fixture.scratch.paths, owner: fixture.service.context.configuration)
            .render(try fixture.service.entry(for: Self.weekly))
        #expect(text.contains("time=10:00\nday=Mon\n"), "\(text)")
        let entry = try #require(EmbeddedEntry(parsing: text))
        #expect(entry.weekday == .monday && entry.text == text)
        let berlin = systemZone("Europe/Berlin")
        var planner = DaemonPlanner()
        _ = planner.wake(now: ISO8601.parse("2026-12-01T10:00:00+01:00")!, zone: berlin, entries: [entry])
        #expect(planner.nextDue == ISO8601.parse("2026-12-07T10:00:00+01:00"))
        #expect(planner.wake(now: ISO8601.parse("2026-12-07T10:00:00+01:00")!, zone: berlin, entries: [entry]).map(\.kind) == [.scheduled])
        #expect(planner.nextDue == ISO8601.parse("2026-12-14T10:00:00+01:00"))
    }

    @Test func deliverShowsItOnlyOnItsWeekday() {
        var p = NotificationPreferences()
        p[LongerTable.toggle] = true
        p.permission = .granted
        let berlin = systemZone("Europe/Berlin")
        func decide(_ iso: String) -> DeliveryDecision {
            DeliveryDecision.decide(Self.weekly, preferences: p, now: ISO8601.parse(iso)!, zone: berlin)
        }
        #expect(decide("2026-12-07T10:00:30+01:00") == .deliver)
        #expect(decide("2026-12-08T10:00:30+01:00") == .notDue(.notTheDay(.tuesday, zone: "Europe/Berlin", recurrence: "every Monday")))
        #expect(decide("2026-12-07T09:00:30+01:00") != .deliver)
        #expect(decide("2026-12-07T18:00:00+01:00") == .deliver)
        #expect(decide("2026-12-08T18:00:00+01:00") != .deliver)
    }

    /// The service with the longer table: `apply` installs it, `status` and `status --json` list
    /// it with its next firing (Monday 10:00), and turning its toggle off cancels it.
    @Test(arguments: [SchedulerKind.cron, .systemd, .embedded])
    func theServiceAppliesAndReportsIt(_ kind: SchedulerKind) throws {
        var fixture = ServiceFixture(now: "2026-12-06T12:00:00+01:00")   // a Sunday
        fixture.catalog = LongerTable.catalog
        fixture.scheduler = kind
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: true, cronDaemonRunning: true, crontabProblem: nil, embeddedDaemonRunning: true)
        try fixture.save { $0[LongerTable.toggle] = true; $0.permission = .granted }
        let file = try String(contentsOfFile: fixture.scratch.paths.settingsFile, encoding: .utf8)
        #expect(file.contains("\"promotions\": false,\n  \"weeklyReview\": true,\n  \"sound\""), "\(file)")
        #expect(try fixture.service.apply().report.result(for: Self.weekly.id) == .installed)
        var status = fixture.service.status()
        #expect(status.planned == ["weekly-review"] && status.installed == ["weekly-review"] && status.inSync, "\(status.reminders)")
        let json = fixture.service.json(status)
        #expect(json["nextReminder"] == .string("2026-12-07T10:00:00+01:00"), "\(json)")
        #expect(json["planned"] == .array([.string("weekly-review")]) && json["firing"]?["weekly-review"] != nil)
        #expect(json["preferences"]?["weeklyReview"] == .bool(true))
        try fixture.save { $0[LongerTable.toggle] = false }
        #expect(try fixture.service.apply().report.result(for: Self.weekly.id) == .cancelled)
        status = fixture.service.status()
        #expect(status.installed == [] && status.reminders.next == .none(.blocked(.preferenceOff, reminderID: "tips-and-updates")))
    }

    @Test(arguments: [SchedulerKind.cron, .systemd, .embedded])
    func applySchedulesAndCancelsIt(_ kind: SchedulerKind) throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        fixture.catalog = LongerTable.catalog
        fixture.scheduler = kind
        try on(fixture)
        let gateway = try #require(fixture.service.gateway(for: kind))
        let service = fixture.service
        var preferences = try service.context.store.load().preferences
        var report = LocalReminders.apply(preferences, gateway: gateway, reminders: Self.table, entry: service.entry(for:))
        #expect(report.result(for: Self.weekly.id) == .installed && report.result(for: "tips-and-updates") == .installed, "\(report)")
        #expect(try gateway.installed().keys.sorted() == ["tips-and-updates", "weekly-review"])
        report = LocalReminders.apply(preferences, gateway: gateway, reminders: Self.table, entry: service.entry(for:))
        #expect(report.result(for: Self.weekly.id) == .unchanged, "a second apply finds it current")
        preferences[LongerTable.toggle] = false
        report = LocalReminders.apply(preferences, gateway: gateway, reminders: Self.table, entry: service.entry(for:))
        #expect(report.result(for: Self.weekly.id) == .cancelled && report.result(for: "tips-and-updates") == .unchanged, "\(report)")
        #expect(try gateway.installed().keys.sorted() == ["tips-and-updates"])
    }
}
