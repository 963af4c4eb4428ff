import Foundation
import Testing
import TestSupport
import SharedLogic
import Storage
@testable import LinuxGateway

/// The service over real files in a scratch directory, with crontab and notify-send answered by
/// a script and `systemctl --user` by `SystemctlDouble` (the real one for file-only operations).
struct ServiceFixture {
    let scratch = Scratch()
    let crontab = CrontabStore()
    let systemctl: SystemctlDouble
    let runner: RecordingRunner
    var clock: any WallClock
    var zone = systemZone("Europe/Berlin")
    /// XDG_CONFIG_HOME for another configuration of the same user (nil: the scratch one).
    var configHome: String?
    /// What /etc/localtime would say (cron's and the user manager's zone).
    var machineZone = ZoneRules.utc
    var environment: [String: String] = [:]
    /// The password database's home (what HOME is in a job); nil as if unknown.
    var accountHome: String?
    var notifyFails = false
    /// The desktop: what was shown and handed to the reminder's waiter.
    let desktop = RecordingDesktop()
    /// When set, `crontab` is not installed.
    let crontabMissing = Flag()
    var scheduler: SchedulerKind? = .cron
    /// How `scheduler` was given: `--scheduler`, or `NOTIF_SCHEDULER` from the environment.
    var schedulerSource = "--scheduler"
    /// The program entries run. "/usr/local/bin/notif" counts as installed (it need not exist on
    /// the test machine); any other path must really be an executable file.
    var executable: String? = ServiceFixture.installedNotif
    static let installedNotif = "/usr/local/bin/notif"
    var probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: true, crontabProblem: nil)
    /// The toggles and reminders (a test may add one).
    var catalog = NotifCatalog.standard

    init(now: String = "2026-12-01T09:00:05+01:00", notifyFails: Bool = false) {
        let crontab = self.crontab
        let crontabMissing = self.crontabMissing
        let systemctl = SystemctlDouble(paths: scratch.paths)
        self.systemctl = systemctl
        runner = RecordingRunner { call throws(SpawnError) in
            if call.argv.first == "systemctl" { return systemctl.respond(call) }
            if crontabMissing.isSet { throw SpawnError(program: call.argv[0], code: ENOENT) }
            return crontab.respond(call)
        }
        clock = FixedClock(instant: ISO8601.parse(now)!)
        self.notifyFails = notifyFails
        if notifyFails {
            desktop.answer = .failed("the user bus: no notification service runs")
            desktop.fails = true
        }
    }

    var context: NotifContext {
        let env = environment
        let probe = self.probe
        let accountHome = self.accountHome
        let base = scratch.paths
        let paths = configHome.map { NotifPaths(home: base.home, configHome: $0, stateHome: base.stateHome, dataHome: base.dataHome) } ?? base
        var context = NotifContext(
            paths: paths, clock: clock, zone: zone, runner: runner,
            lookup: { env[$0] }, forcedScheduler: scheduler,
            probe: { probe },
            executable: executable)
        context.accountHome = { accountHome }
        context.forcedSchedulerSource = schedulerSource
        context.systemZone = machineZone
        context.catalog = catalog
        context.isExecutable = { $0 == ServiceFixture.installedNotif || FileIO.isExecutable($0) }
        context.desktop = desktop
        // The scratch home is under /tmp, which the trust rule refuses; elsewhere it is the real rule.
        let scratchPath = scratch.path
        context.trust = { $0.hasPrefix(scratchPath + "/") || $0 == scratchPath ? nil : TrustedPath.problem($0) }
        return context
    }

    var service: ReminderService { ReminderService(context: context) }

    func save(_ change: (inout NotificationPreferences) -> Void) throws {
        try service.context.store.update(change)
    }

    /// Reminders handed to the waiter, and notifications shown, so far.
    var notifications: Int { desktop.handOffs.count + desktop.shown.count }
}

@Suite struct ReminderServiceTests {
    @Test func applyInstallsOnCronAndRecordsTheSession() throws {
        var fixture = ServiceFixture()
        // A bus this process serves; a display nobody serves is not recorded (the rule of `SessionEnvironment.problem`).
        let bus = "/notif-test-" + UUID().uuidString
        let listening = BusPeerTests().listen(bus, abstract: true)
        defer { close(listening) }
        // Far above the displays the end-to-end suites start meanwhile (they take the first free ones).
        let display = 29_999
        try #require(access("/tmp/.X11-unix/X\(display)", F_OK) != 0, "display :\(display) is served here")
        fixture.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=\(bus)", "DISPLAY": ":\(display)"]
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let outcome = try fixture.service.apply()
        #expect(outcome.report.result(for: "tips-and-updates") == .installed)
        #expect(fixture.crontab.current?.contains("0 9 * * * [ -x /usr/local/bin/notif ] && exec \(cronPins) /usr/local/bin/notif deliver --quiet tips-and-updates") == true)
        let session = try fixture.service.context.state.read(StateFiles.sessionFile)
        #expect(session == "DBUS_SESSION_BUS_ADDRESS=unix:abstract=\(bus)\n")
        #expect(try fixture.service.context.state.read(fixture.service.schedulerRecord) == "cron\nchoice auto\n")
    }

    @Test func customXDGDirectoriesTravelWithTheEntry() throws {
        var fixture = ServiceFixture()
        fixture.environment = ["XDG_CONFIG_HOME": "/srv/my cfg", "XDG_STATE_HOME": "relative/ignored"]
        let entry = try fixture.service.entry(for: LocalReminders.tipsAndUpdates)
        #expect(entry.command == ["/usr/bin/env", "XDG_CONFIG_HOME=/srv/my cfg", "/usr/local/bin/notif", "deliver", "--quiet", "tips-and-updates"])
        #expect(entry.catchUpCommand == ["/usr/bin/env", "XDG_CONFIG_HOME=/srv/my cfg", "/usr/local/bin/notif", "deliver", "--quiet", "--catch-up", "tips-and-updates"])
        #expect(entry.program == "/usr/local/bin/notif" && entry.zoneVariable == nil)
    }

    /// Jobs start with the password database's HOME: another HOME in effect now goes with the
    /// entry (so it reads the same settings); the usual one, or an unknown one, does not.
    @Test(arguments: [
        ("/srv/elsewhere", "/home/alice", ["/usr/bin/env", "HOME=/srv/elsewhere", "XDG_STATE_HOME=/srv/state"]),
        ("/home/alice", "/home/alice", ["/usr/bin/env", "XDG_STATE_HOME=/srv/state"]),
        ("/srv/elsewhere", nil, ["/usr/bin/env", "XDG_STATE_HOME=/srv/state"]),
        ("relative", "/home/alice", ["/usr/bin/env", "XDG_STATE_HOME=/srv/state"]),
    ] as [(String, String?, [String])])
    func aHomeOtherThanTheAccountsTravelsWithTheEntry(home: String, accountHome: String?, prefix: [String]) throws {
        var fixture = ServiceFixture()
        fixture.environment = ["HOME": home, "XDG_STATE_HOME": "/srv/state"]
        fixture.accountHome = accountHome
        let entry = try fixture.service.entry(for: LocalReminders.tipsAndUpdates)
        #expect(entry.command == prefix + ["/usr/local/bin/notif", "deliver", "--quiet", "tips-and-updates"])
    }

    /// The zone notif shows goes with the entry when TZ says it (a job may start in another zone);
    /// without TZ the entry follows the system zone, as the scheduler does.
    @Test func tzTravelsWithTheEntryAndCronGetsTheSystemZoneTimes() throws {
        var fixture = ServiceFixture(now: "2026-11-30T12:00:00Z")
        fixture.environment = ["TZ": "America/St_Johns"]
        fixture.zone = systemZone("America/St_Johns")
        fixture.machineZone = systemZone("Etc/UTC")
        let entry = try fixture.service.entry(for: LocalReminders.tipsAndUpdates)
        #expect(entry.command == ["/usr/bin/env", "TZ=America/St_Johns", "/usr/local/bin/notif", "deliver", "--quiet", "tips-and-updates"])
        #expect(entry.zoneVariable == "America/St_Johns" && entry.zone.name == "America/St_Johns")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(try fixture.service.apply().succeeded)
        let lines = (fixture.crontab.current ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.prefix(10)) }
        #expect(lines == ["SHELL=/bin", "PATH=/usr/", "30 11 * * ", "30 12 * * ", "@reboot [ "], "\(fixture.crontab.current ?? "")")
        let status = fixture.service.status()
        #expect(status.inSync, "\(status.outOfSync)")
        #expect(status.firing["tips-and-updates"] == "cron at 11:30 and 12:30 system time (Etc/UTC); the run that is 09:00 in America/St_Johns shows it")
        let typed = fixture.service.json(status)["firingSchedule"]?["tips-and-updates"]
        #expect(typed?["times"] == .array([.string("11:30"), .string("12:30")]) && typed?["zone"] == .string("Etc/UTC"), "\(String(describing: typed))")
        #expect(typed?["wanted"]?["zone"] == .string("America/St_Johns") && typed?["matchesWanted"] == .bool(true))
        // Seen without TZ, the entry is another zone's: status says it does not match.
        fixture.environment = [:]
        fixture.zone = systemZone("Etc/UTC")
        let plain = fixture.service.status()
        #expect(!plain.inSync && plain.firing["tips-and-updates"]?.contains("not 09:00 in Etc/UTC") == true, "\(plain.firing)")
    }

    @Test func deliversOncePerLocalDay() throws {
        var fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let second = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(second.outcome == .delivered, "\(second)")
        #expect(second.day.description == "2026-12-01")
        #expect(second.time == "2026-12-01T09:00:05+01:00")
        #expect(second.detail == "accepted by the notification service through the user bus as notification 7, with Turn off and Settings")
        // Shown already: another run that day is no attempt, and records nothing.
        let third = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(third.outcome == .skipped && third.detail == "already sent today (2026-12-01)")
        #expect(fixture.notifications == 1)
        // The next local day delivers again.
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-02T09:00:00+01:00")!)
        #expect(fixture.service.deliver(LocalReminders.tipsAndUpdates).outcome == .delivered)
        let log = try fixture.service.context.deliveryLog.newest(10)
        #expect(log.map(\.outcome) == [.delivered, .delivered])
        #expect(fixture.desktop.handOffs.map(\.day.description) == ["2026-12-01", "2026-12-02"])
    }

    @Test func aStaleEntryDeliversNothing() throws {
        let fixture = ServiceFixture()
        for change: (inout NotificationPreferences) -> Void in [
            { $0[.tipsAndUpdates] = false; $0.permission = .granted },
            { $0[.tipsAndUpdates] = true; $0[.pushNotifications] = false },
            { $0[.pushNotifications] = true; $0.permission = .denied },
            { $0.permission = .granted; $0.mode = .account },
        ] {
            try fixture.save(change)
            let record = fixture.service.deliver(LocalReminders.tipsAndUpdates)
            #expect(record.outcome == .skipped)
        }
        #expect(fixture.notifications == 0)
        #expect(try fixture.service.context.deliveryLog.newest(10).count == 4, "a due run the settings refuse is recorded")
    }

    @Test func aFailedDeliveryIsRecordedWithTheReasonAndCanBeRetried() throws {
        var fixture = ServiceFixture(notifyFails: true)
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let record = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(record.outcome == .failed && record.detail.contains("no notification service"))
        #expect(fixture.service.context.state.lastDelivered().isEmpty)
        fixture.desktop.answer = .shown("through the user bus as notification 8")
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-01T09:30:00+01:00")!)
        let retried = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(retried.outcome == .delivered && retried.detail.hasPrefix("sent 09:30, 30 min late: the run at 09:00 failed: "), "\(retried)")
    }

    /// No service: the waiter waits, `deliver` records it, and runs that come meanwhile do
    /// nothing (the waiter's lock says one waits); the waiter that says `busy` is no attempt either.
    @Test func aWaitingReminderIsRecordedOnceAndLeftToItsWaiter() throws {
        let fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        fixture.desktop.answer = .waiting("the user bus: no notification service runs")
        let waiting = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(waiting.outcome == .waiting && waiting.detail == "not sent yet: the user bus: no notification service runs; "
                + "it is sent as soon as a notification service takes it, until the day ends", "\(waiting)")
        let lock = try #require(try FileLock.tryAcquire(fixture.scratch.paths.stateFile(StateFiles.waitLock("tips-and-updates"))))
        let meanwhile = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(meanwhile.outcome == .skipped && meanwhile.detail.contains("a waiter already waits"), "\(meanwhile)")
        #expect(fixture.desktop.handOffs.count == 1, "no second waiter")
        lock.release()
        fixture.desktop.answer = .busy
        #expect(fixture.service.deliver(LocalReminders.tipsAndUpdates).outcome == .skipped)
        #expect(try fixture.service.context.deliveryLog.newest(10).map(\.outcome) == [.waiting])
        let status = fixture.service.status()
        #expect(status.lastDelivery == nil && status.lastAttempt?.outcome == .waiting && !status.waiting)
    }

    @Test func testNotificationsDoNotCountAsTheDaysReminder() throws {
        let fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(fixture.service.test().outcome == .delivered)
        #expect(fixture.service.deliver(LocalReminders.tipsAndUpdates).outcome == .delivered)
        #expect(fixture.service.status().lastDelivery?.kind == .scheduled)
        try fixture.save { $0.permission = .denied }
        #expect(fixture.service.test().outcome == .skipped)
        #expect(fixture.desktop.shown.map(\.summary) == ["notif test notification"], "\(fixture.desktop.shown)")
    }

    /// Every run keeps one rule: before today's time nothing (and no record), after it the
    /// reminder once, whether the entry asked with --catch-up or not.
    @Test func beforeTheTimeNothingAfterItOnce() throws {
        var fixture = ServiceFixture(now: "2026-12-01T08:30:00+01:00")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let early = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(early.outcome == .skipped && early.detail == "not due yet: 08:30 in Europe/Berlin, before 09:00")
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-01T15:00:00+01:00")!)
        let late = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(late.outcome == .delivered && late.detail.hasPrefix("sent 15:00, 6 h late: the first run since 09:00"), "\(late)")
        #expect(fixture.service.deliver(LocalReminders.tipsAndUpdates).outcome == .skipped)
        #expect(try fixture.service.context.deliveryLog.newest(10).map(\.outcome) == [.delivered])
    }

    /// A waiter that began at 09:00 and ended (a logout), a later one that sent it: the record
    /// counts the wait from 09:00, not from the later run.
    @Test func aLateRecordCountsTheWaitFromTheDaysFirstWaiter() throws {
        let fixture = ServiceFixture(now: "2026-12-01T09:07:04+01:00")
        let day = CivilDate(year: 2026, month: 12, day: 1)
        let at = { (text: String) in ISO8601.parse("2026-12-01T\(text)+01:00")! }
        let reminder = LocalReminders.tipsAndUpdates
        _ = fixture.service.log(reminder.id, kind: .scheduled, now: at("09:00:00"), .waiting, "no notification service: none", day: day)
        _ = fixture.service.log(reminder.id, kind: .scheduled, now: at("09:05:44"), .failed, "the waiter ended: the session bus went away", day: day)
        let shown = fixture.service.recordShown(reminder, day: day, now: at("09:07:04"), waitingSince: at("09:06:55"), words: "")
        #expect(shown.detail.hasPrefix("sent 09:07, 7 min late: no notification service until then"), "\(shown.detail)")
        // Sent at once by a later run (a service was there): the ended wait is named, not "no service".
        let direct = fixture.service.recordShown(reminder, day: day, now: at("09:15:00"), waitingSince: nil, words: "")
        #expect(direct.detail.hasPrefix("sent 09:15, 15 min late: the run at 09:05 failed: the waiter ended"), "\(direct.detail)")
    }

    /// A waiter killed without a record of its ending, then a catch-up by hand: the record names
    /// the waiter's run, not "the first run since 09:00".
    @Test func aLateRecordAfterAKilledWaiterNamesItsRun() throws {
        let fixture = ServiceFixture(now: "2026-12-01T09:40:00+01:00")
        let day = CivilDate(year: 2026, month: 12, day: 1)
        let reminder = LocalReminders.tipsAndUpdates
        _ = fixture.service.log(reminder.id, kind: .scheduled, now: ISO8601.parse("2026-12-01T09:00:01+01:00")!, .waiting, "no notification service: none", day: day)
        let shown = fixture.service.recordShown(reminder, day: day, now: ISO8601.parse("2026-12-01T09:40:00+01:00")!, waitingSince: nil, words: "")
        #expect(shown.detail.hasPrefix("sent 09:40, 40 min late: the run at 09:00 failed: its waiter ended before it could send it"), "\(shown.detail)")
    }

    /// history's newest `waiting` record of a reminder, with nothing waiting now, says its waiter
    /// is gone (today) or ended before its day did; older records, and a test's, say only themselves.
    @Test func historySaysWhenTheNewestWaitingRecordsWaiterIsGone() throws {
        let fixture = ServiceFixture(now: "2026-12-02T09:40:00+01:00")
        let reminder = LocalReminders.tipsAndUpdates
        let at = { (text: String) in ISO8601.parse(text)! }
        _ = fixture.service.log(reminder.id, kind: .scheduled, now: at("2026-12-01T09:00:01+01:00"), .waiting, "w1")
        #expect(try fixture.service.history(5).map(\.detail) == ["w1 (its waiter ended before the day did)"])
        _ = fixture.service.log(reminder.id, kind: .scheduled, now: at("2026-12-02T09:00:01+01:00"), .waiting, "w2")
        _ = fixture.service.log(reminder.id, kind: .test, now: at("2026-12-02T09:10:00+01:00"), .waiting, "t")
        #expect(try fixture.service.history(5).map(\.detail)
                == ["t", "w2 (its waiter is gone: `notif deliver --catch-up tips-and-updates` sends it now)", "w1"])
        // Its waiter still waits: nothing added.
        let held = try fixture.service.context.state.lock(StateFiles.waitLock(reminder.id))
        #expect(try fixture.service.history(5).map(\.detail) == ["t", "w2", "w1"])
        held.release()
    }

    /// Today's is owed (status and the page say it, and what sends it) once it has been due a
    /// minute with no run at all, as when cron skipped its line after a long suspend; not in the
    /// minute every scheduler runs it in, not before its time, and not once it was sent.
    @Test func todaysIsOwedOnceItHasBeenDueAMinuteWithNoRun() throws {
        var fixture = ServiceFixture(now: "2026-12-01T08:00:00+01:00")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        func owed(at time: String, day: String = "01") -> String? {
            fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-\(day)T\(time)+01:00")!)
            return fixture.service.status().reminders.owed
        }
        // On, but no entry was ever written: nothing known to owe it.
        #expect(owed(at: "10:00:00") == nil)
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-01T08:00:00+01:00")!)
        #expect(try fixture.service.apply().succeeded)
        #expect(owed(at: "08:59:30") == nil)
        #expect(owed(at: "09:00:40") == nil, "its run comes within the minute")
        #expect(owed(at: "09:01:00") == "tips-and-updates")
        #expect(owed(at: "23:59:00") == "tips-and-updates")
        _ = fixture.service.recordShown(LocalReminders.tipsAndUpdates, day: CivilDate(year: 2026, month: 12, day: 1),
                                        now: ISO8601.parse("2026-12-01T10:00:00+01:00")!, waitingSince: nil, words: "")
        #expect(owed(at: "10:00:30") == nil)
        #expect(owed(at: "00:00:30", day: "02") == nil, "tomorrow's is not due yet")
        #expect(owed(at: "09:01:00", day: "02") == "tips-and-updates")
    }

    /// What still sends a reminder whose waiter ended depends on the scheduler holding it.
    @Test func theLaterRunNamedIsTheSchedulersOwn() {
        #expect(ReminderService.laterRun("x", on: .embedded).hasPrefix("notif daemon sends it again while it runs, or `notif deliver --catch-up x`"))
        #expect(ReminderService.laterRun("x", on: .systemd).hasPrefix("your next login sends it, or `notif deliver"))
        #expect(ReminderService.laterRun("x", on: .cron) == "`notif deliver --catch-up x` sends it now")
    }

    /// `apply` records when an entry for a reminder that had none began; `deliver` reads it:
    /// turned on after 09:00, nothing until tomorrow's 09:00, whatever run comes.
    @Test func turnedOnAfterTheTimeShowsNothingUntilTomorrow() throws {
        var fixture = ServiceFixture(now: "2026-12-01T14:05:00+01:00")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(try fixture.service.apply().report.outcomes.first?.newEntry == true)
        let key = "tips-and-updates." + fixture.service.context.configuration.tag
        #expect(fixture.service.context.state.entrySince()[key]?.text == "2026-12-01T14:05:00+01:00")
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-01T16:00:00+01:00")!)
        let boot = fixture.service.deliver(LocalReminders.tipsAndUpdates)
        #expect(boot.outcome == .skipped && boot.detail.hasPrefix("turned on at 14:05 in Europe/Berlin, after today's 09:00"), "\(boot)")
        // An apply that rewrites nothing keeps when it began.
        #expect(try fixture.service.apply().report.outcomes.first?.newEntry == false)
        #expect(fixture.service.context.state.entrySince()[key]?.text == "2026-12-01T14:05:00+01:00")
        fixture.clock = FixedClock(instant: ISO8601.parse("2026-12-02T09:00:01+01:00")!)
        #expect(fixture.service.deliver(LocalReminders.tipsAndUpdates).outcome == .delivered)
        #expect(fixture.notifications == 1)
    }

    @Test func statusReportsPlanInstalledSyncAndNextReminder() throws {
        let fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        var status = fixture.service.status()
        #expect(status.planned == ["tips-and-updates"] && status.installed == [] && !status.inSync)
        #expect(status.nextReminder == nil)
        _ = try fixture.service.apply()
        status = fixture.service.status()
        #expect(status.inSync && status.installed == ["tips-and-updates"])
        #expect(status.nextReminder.map { ISO8601.format($0, in: fixture.service.context.zone) } == "2026-12-02T09:00:00+01:00")
        let json = fixture.service.json(status)
        #expect(json["nextReminder"] == .string("2026-12-02T09:00:00+01:00"))
        #expect(json["inSync"] == .bool(true))
        for key in ["mode", "preferences", "permission", "scheduler", "planned", "installed", "inSync", "nextReminder", "lastDelivery"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        try fixture.save { $0.permission = .denied }
        status = fixture.service.status()
        #expect(!status.inSync && status.noReminderReason == "permission is Don't allow")
    }

    @Test func statusSaysWhatEachSchedulerStillNeeds() throws {
        var fixture = ServiceFixture(now: "2026-12-01T10:00:00+01:00")
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        // systemd forced on a machine with no user manager: written, enabled, exit 0, and said.
        fixture.scheduler = .systemd
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)
        #expect(try fixture.service.apply().succeeded)
        var status = fixture.service.status()
        #expect(status.inSync && status.installed == ["tips-and-updates"])
        // Not started with systemd: no login starts a manager, so the warning says the timer cannot fire, and what to do.
        #expect(status.warnings.contains { $0.hasPrefix("systemd's timers cannot fire on this machine") && $0.contains("`notif set scheduler auto`") },
                "\(status.warnings)")
        #expect(!status.warnings.contains { $0.contains("next login") }, "\(status.warnings)")
        fixture.probe.systemdBooted = true
        #expect(fixture.service.status().warnings.contains { $0.contains("no systemd user manager is running") && $0.contains("next login") })
        fixture.probe.systemdBooted = false
        #expect(status.schedulerState == "no systemd user manager, and this machine was not started with systemd: its timers cannot fire")
        // Neither systemd nor cron: the built-in scheduler, which needs `notif daemon`.
        fixture.scheduler = nil
        #expect(try fixture.service.apply().succeeded)
        status = fixture.service.status()
        #expect(status.choice.kind == .embedded && status.inSync)
        #expect(status.warnings.contains { $0.contains("`notif daemon` is not running") })
        #expect(fixture.service.json(status)["scheduler"] == .string("embedded"))
        #expect(fixture.service.json(status)["schedulerState"] == .string("notif daemon is not running"))
        fixture.probe.embeddedDaemonRunning = true
        status = fixture.service.status()
        #expect(status.warnings.isEmpty && status.schedulerState == "notif daemon running")
        // A systemd user manager that appears does not move entries off a built-in scheduler
        // that runs (auto keeps what can still hold them) ...
        fixture.probe.systemdUserManagerRunning = true
        #expect(fixture.service.status().choice.kind == .embedded)
        // ... but once nothing runs the built-in scheduler, auto picks systemd.
        fixture.probe.embeddedDaemonRunning = false
        status = fixture.service.status()
        #expect(status.choice.kind == .systemd && status.schedulerState == "user manager running")
    }

    @Test func statusWarnsAboutEntriesInABuildFolder() throws {
        let fixture = ServiceFixture()
        let owner = fixture.service.context.configuration
        let block = "\(CrontabBlock.beginMarker(owner))\n# notif reminder: tips-and-updates\n0 9 * * * /src/notif/.build/debug/notif deliver tips-and-updates\n\(CrontabBlock.endMarker(owner))\n"
        _ = fixture.crontab.respond(.init(argv: ["crontab", "-"], input: Array(block.utf8), environment: [:]))
        let status = fixture.service.status()
        #expect(status.warnings.contains { $0.contains("build folder") })
    }
}

/// An entry never names a program that is not there: a binary removed (or replaced by
/// something that is not a program) while notif runs makes installing fail, with the reason,
/// and nothing reaches the scheduler.
@Suite struct OwnProgramTests {
    func tipsOn(_ fixture: ServiceFixture) throws {
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
    }

    @Test(arguments: ["missing", "directory", "not executable", "unknown"])
    func applyFailsAndWritesNothingWhenTheProgramIsNotThere(_ kind: String) throws {
        var fixture = ServiceFixture()
        let path = fixture.scratch.path + "/bin/notif"
        try FileManager.default.createDirectory(atPath: fixture.scratch.path + "/bin", withIntermediateDirectories: true)
        switch kind {
        case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case "not executable": _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644])
        default: break
        }
        fixture.executable = kind == "unknown" ? nil : path
        try tipsOn(fixture)
        let outcome = try fixture.service.apply()
        #expect(!outcome.succeeded)
        guard case .failed(let message) = outcome.report.result(for: "tips-and-updates") else {
            Issue.record("not a failure: \(outcome.report)")
            return
        }
        let expected = kind == "unknown" ? "cannot tell where its own program is" : "notif's own program \(path) was removed or replaced"
        #expect(message.contains(expected), "\(message)")
        #expect(fixture.runner.argvs == [["crontab", "-l"]], "the crontab was only read")
        #expect(fixture.crontab.currentBytes == nil)
        #expect(try fixture.service.context.store.load().preferences[.tipsAndUpdates], "the setting stays saved")
        // status says why, and that nothing fires.
        let status = fixture.service.status()
        #expect(!status.inSync && status.nextReminder == nil)
        #expect(status.warnings.contains { $0.contains(expected) }, "\(status.warnings)")
        // Not "`notif apply` installs it": apply cannot, and the next reminder says so.
        guard case .none(.cannotWrite(let why)) = status.reminders.next else {
            Issue.record("\(status.reminders.next)")
            return
        }
        #expect(why.contains(expected) && status.noReminderReason?.contains("notif cannot write its entry") == true, "\(why)")
    }

    /// `make install` over the running binary: /proc/self/exe says "PATH (deleted)", and the new
    /// program at PATH is what the entry runs.
    @Test func aReplacedProgramIsRunFromItsPath() throws {
        var fixture = ServiceFixture()
        let path = fixture.scratch.path + "/notif"
        try writeProgram("#!/bin/sh\n", to: path)
        fixture.executable = FileIO.executablePath(fromLink: path + " (deleted)")
        try tipsOn(fixture)
        let outcome = try fixture.service.apply()
        #expect(outcome.succeeded, "\(outcome.report)")
        let table = fixture.crontab.current ?? ""
        #expect(table.contains("0 9 * * * [ -x \(path) ] && exec \(cronPins) \(path) deliver --quiet tips-and-updates") && !table.contains("(deleted)"), "\(table)")
    }

    /// Turning the reminder off needs no program: the entry goes even when the binary is gone.
    @Test func anEntryIsStillRemovedWhenTheProgramIsGone() throws {
        var fixture = ServiceFixture()
        try tipsOn(fixture)
        #expect(try fixture.service.apply().succeeded)
        #expect(fixture.crontab.current?.contains("deliver --quiet tips-and-updates") == true)
        fixture.executable = fixture.scratch.path + "/gone/notif"
        try fixture.save { $0[.tipsAndUpdates] = false }
        #expect(try fixture.service.apply().succeeded)
        #expect(fixture.crontab.currentBytes == nil)
    }
}
