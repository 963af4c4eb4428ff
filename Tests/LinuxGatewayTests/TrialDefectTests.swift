import SharedLogic
import Storage
import Testing
@testable import LinuxGateway

/// What a fresh-account trial found wrong with the saved scheduler choice, status and the next
/// reminder, through `apply` and `status` on the scratch files and the in-memory crontab.
@Suite struct TrialDefectTests {
    func on(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    func holders(_ fixture: ServiceFixture) throws -> [SchedulerKind] {
        try SchedulerKind.allCases.filter { try fixture.service.gateway(for: $0)!.installed()["tips-and-updates"] != nil }
    }

    /// `NOTIF_SCHEDULER=embedded notif apply`, `NOTIF_SCHEDULER=embedded notif set scheduler
    /// cron`, then a plain `notif apply`: the saved choice takes effect on that plain run.
    @Test func aChoiceSavedUnderAnOverrideTakesEffectOnTheNextPlainRun() throws {
        var fixture = ServiceFixture()
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil, embeddedDaemonRunning: true)
        try on(fixture)
        fixture.scheduler = .embedded
        fixture.schedulerSource = "NOTIF_SCHEDULER"
        #expect(try fixture.service.apply().succeeded)
        try fixture.save { $0.scheduler = .cron }
        let saving = try fixture.service.apply(choosing: true)
        #expect(saving.succeeded && saving.choice.why == "NOTIF_SCHEDULER=embedded was given for this run")
        #expect(try holders(fixture) == [.embedded], "the override wins its own run")
        #expect(try fixture.service.context.state.read(fixture.service.schedulerRecord)
                == "embedded\nchoice cron\noverride NOTIF_SCHEDULER=embedded\npending\n")
        // Another overridden run leaves the choice pending.
        #expect(try fixture.service.apply().succeeded && holders(fixture) == [.embedded])
        fixture.scheduler = nil
        let status = fixture.service.status()
        #expect(status.choice.kind == .cron && status.choice.why == "you chose cron", "\(status.choice)")
        let plain = try fixture.service.apply()
        #expect(plain.succeeded && plain.change == SchedulerChange(from: .embedded, to: .cron, why: "you chose cron"), "\(plain)")
        #expect(try holders(fixture) == [.cron])
        #expect(try fixture.service.context.state.read(fixture.service.schedulerRecord) == "cron\nchoice cron\n")
    }

    /// After `--scheduler embedded apply` on a machine where nothing runs the built-in
    /// scheduler, a plain `status` reads the entry where it is: installed on embedded, not in
    /// sync because `apply` moves it, and unable to fire there.
    @Test func statusReadsTheEntriesFromTheSchedulerThatHoldsThem() throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil)
        try on(fixture)
        fixture.scheduler = .embedded
        #expect(try fixture.service.apply().succeeded)
        fixture.scheduler = nil
        let status = fixture.service.status()
        #expect(status.choice.kind == .cron, "\(status.choice)")
        #expect(status.installed == ["tips-and-updates"] && status.reminders.scheduler == .embedded, "\(status.reminders)")
        #expect(!status.inSync && status.outOfSync == ["tips-and-updates is on embedded; `notif apply` moves it to cron"], "\(status.outOfSync)")
        #expect(status.reminders.cannotFire == ["tips-and-updates": .daemonNotRunning])
        #expect(fixture.service.json(status)["holder"] == .string("embedded"))
        // The apply moves it; status then reads cron.
        #expect(try fixture.service.apply().change?.to == .cron)
        let after = fixture.service.status()
        #expect(after.inSync && after.reminders.scheduler == .cron && after.installed == ["tips-and-updates"])
    }

    /// The reminder was shown on the local day that a changed zone puts the next 09:00 on:
    /// `deliver` would skip that run, so the next reminder is the day after.
    @Test func theNextReminderSkipsADayItWasAlreadyDeliveredOn() throws {
        var fixture = ServiceFixture(now: "2026-12-01T08:30:00+01:00")
        try on(fixture)
        #expect(try fixture.service.apply().succeeded)
        let berlin = fixture.zone
        #expect(fixture.service.status().nextReminder.map { ISO8601.format($0, in: berlin) } == "2026-12-01T09:00:00+01:00")
        try fixture.service.context.state.recordDelivered("tips-and-updates", on: CivilDate(year: 2026, month: 12, day: 1))
        #expect(fixture.service.status().nextReminder.map { ISO8601.format($0, in: berlin) } == "2026-12-02T09:00:00+01:00")
        // It is deliver's own rule: a run at that 09:00 would skip.
        let reminder = LocalReminders.all[0]
        let due = ReminderClock.fireInstant(of: reminder.time, on: CivilDate(year: 2026, month: 12, day: 1), in: berlin)
        #expect(DeliveryDecision.decide(reminder, preferences: try fixture.service.context.store.load().preferences, now: due, zone: berlin,
                                        shown: ShownDay(day: CivilDate(year: 2026, month: 12, day: 1)))
                == .notDue(.shownToday(CivilDate(year: 2026, month: 12, day: 1))))
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-01T09:00:05+01:00")!)
        #expect(fixture.service.nextFire()["tips-and-updates"].map { ISO8601.format($0, in: berlin) } == "2026-12-02T09:00:00+01:00")
    }

    /// A `crontab` that is installed but not on PATH is said one way everywhere.
    @Test func aCrontabNotOnPathIsSaidOneWay() {
        let problem = SchedulerProbe.crontabProblem(user: "nobody", path: "/nonexistent-dir")
        #expect(problem == CronGateway.crontabMissing && problem?.contains("not installed or not on PATH") == true)
        #expect(SchedulerUsability.of(.cron, probe: SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true,
                                                                   crontabProblem: problem)).reason.contains("not installed or not on PATH"))
    }

    /// With its autostart entry in place the built-in scheduler's warning says the daemon starts
    /// at the next login and how to start it now, not to install the autostart entry.
    @Test func theBuiltInWarningKnowsTheAutostartEntry() throws {
        let probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedAutostart: true)
        let warnings = SchedulerDetection.warnings(for: .embedded, probe: probe)
        #expect(warnings.count == 1 && warnings[0].contains("starts it at your next desktop login")
                && warnings[0].contains("`notif daemon` to start it now") && !warnings[0].contains("--install-autostart"), "\(warnings)")
        probe.embeddedAutostart = false
        #expect(SchedulerDetection.warnings(for: .embedded, probe: probe)[0].contains("`notif daemon --install-autostart`"))
    }
}
