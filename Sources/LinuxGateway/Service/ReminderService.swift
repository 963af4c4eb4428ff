import Glibc
import SharedLogic
import Storage

/// notif's use cases over real files and schedulers: apply, deliver, test, status. The page and
/// the command line both go through here.
public struct ReminderService: Sendable {
    public let context: NotifContext

    public init(context: NotifContext) { self.context = context }

    static let applyLock = "apply.lock"

    /// Every reminder this notif knows, from its table.
    public var reminders: [LocalReminder] { context.catalog.reminders }
    static let deliverLock = "deliver.lock"
    static let crontabLock = "crontab.lock"

    // MARK: Schedulers

    /// The schedulers this build can drive.
    public static let availableSchedulers: Set<SchedulerKind> = [.systemd, .cron, .embedded]

    /// The scheduler for `preferences` on this run (see `SchedulerDetection.decide`).
    /// - Parameter choosing: the saved choice was just made (`notif set scheduler`, the page's
    ///   chooser), so it is honoured even when it did not change.
    public func schedulerChoice(for preferences: NotificationPreferences, probe: SchedulerProbe? = nil, choosing: Bool = false) -> SchedulerChoice {
        schedulerChoice(for: preferences, placement: placement(), probe: probe ?? context.probe(), choosing: choosing)
    }

    func schedulerChoice(for preferences: NotificationPreferences, placement: SchedulerPlacement?, probe: SchedulerProbe,
                         choosing: Bool) -> SchedulerChoice {
        SchedulerDetection.decide(override: context.forcedScheduler, saved: preferences.scheduler, placement: placement,
                                  choosing: choosing, probe: probe, available: Self.availableSchedulers,
                                  overrideSource: context.forcedSchedulerSource)
    }

    /// What `auto` would use now, and why (the page's chooser shows it before anything is chosen).
    public func autoChoice(probe: SchedulerProbe? = nil) -> SchedulerChoice {
        var preferences = NotificationPreferences()
        preferences.scheduler = .auto
        var context = self.context
        context.forcedScheduler = nil
        return ReminderService(context: context).schedulerChoice(for: preferences, placement: placement(), probe: probe ?? self.context.probe(),
                                                                 choosing: false)
    }

    /// Where the last finished apply put the entries, and under which saved choice.
    public func placement() -> SchedulerPlacement? {
        (try? context.state.read(schedulerRecord))?.flatMap(SchedulerPlacement.init(parsing:))
    }

    /// The scheduler the last finished apply used.
    public func recordedScheduler() -> SchedulerKind? { placement()?.holder }

    public func gateway(for kind: SchedulerKind) -> (any LocalNotificationGateway)? {
        let owner = context.configuration
        let context = self.context
        switch kind {
        case .cron:
            return CronGateway(runner: context.runner, lockPath: context.paths.stateFile(Self.crontabLock), owner: owner,
                               systemZone: { context.systemZone }, clock: context.clock)
        case .systemd:
            let probe = context.probe
            return SystemdTimerGateway(runner: context.runner, paths: context.paths, owner: owner, systemZone: { context.systemZone },
                                       clock: context.clock, managerRunning: { probe().systemdUserManagerRunning })
        case .embedded: return EmbeddedScheduler(paths: context.paths, owner: owner)
        }
    }

    /// What a scheduled entry runs: `notif deliver --quiet ID`, and `notif deliver --quiet
    /// --catch-up ID` for runs that may come late (boot, a missed timer), in the zone notif shows
    /// (`TZ` goes with the entry when set). Quiet: a scheduler's job writes nothing to stdout or
    /// stderr (cron mails it); the outcome is in the delivery log. Fails when notif's own program is gone.
    public func entry(for reminder: LocalReminder) throws(GatewayError) -> ScheduledEntry {
        ScheduledEntry(reminder: reminder, command: try command(["deliver", "--quiet", reminder.id], carryingZone: true),
                       catchUpCommand: try command(["deliver", "--quiet", "--catch-up", reminder.id], carryingZone: true),
                       program: try program(), zone: context.zone, zoneVariable: context.lookup("TZ"))
    }

    /// The path of notif's own program for an entry to run, checked now: it must exist and be
    /// executable. A binary removed while notif runs (or replaced by something else) would give
    /// an entry that never runs while the page shows the next reminder; installing fails instead.
    public func program() throws(GatewayError) -> String {
        guard let path = context.executable else {
            throw GatewayError("notif cannot tell where its own program is (/proc/self/exe cannot be read), so nothing was scheduled; run notif by its full path")
        }
        guard context.isExecutable(path) else {
            throw GatewayError("notif's own program \(path) was removed or replaced; run the installed notif again (`notif apply`) so the entry names a program that exists; nothing was scheduled")
        }
        return path
    }

    /// `notif ARGS` by absolute path. XDG locations (and with `carryingZone`, `TZ`) set for this
    /// process are passed on through `/usr/bin/env`, since schedulers and session managers start
    /// programs without them. `notif daemon` gets no `TZ`: its entries carry their own zones, and
    /// the others follow the system zone.
    public func command(_ arguments: [String], carryingZone: Bool = false) throws(GatewayError) -> [String] {
        var command: [String] = []
        // Where notif's files are: a HOME other than the one jobs get (the password database's),
        // and XDG directories, go with the entry so it reads the same files.
        var carried: [String] = []
        if let home = context.lookup("HOME"), home.hasPrefix("/"), let jobHome = context.accountHome(), home != jobHome {
            carried.append("HOME=\(home)")
        }
        carried += ["XDG_CONFIG_HOME", "XDG_STATE_HOME"].compactMap { name in
            context.lookup(name).flatMap { $0.hasPrefix("/") ? "\(name)=\($0)" : nil }
        }
        // The zone notif shows: a job started by a scheduler in another zone still counts the
        // reminder's day and time in it.
        if carryingZone, let zone = context.lookup("TZ") { carried.append("TZ=" + zone) }
        let executable = try program()
        if !carried.isEmpty {
            command = ["/usr/bin/env"] + carried
            // env takes every word holding '=' before the program for another assignment: a path
            // like /opt/a=b/notif would be swallowed and the next word ("deliver") run instead.
            if executable.contains("=") { command += Self.execTrampoline }
        }
        return command + [executable] + arguments
    }

    /// `sh -c 'exec "$0" "$@"' PROGRAM ARGS...`: runs PROGRAM with ARGS exactly, whatever its name.
    public static let execTrampoline = ["/bin/sh", "-c", "exec \"$0\" \"$@\""]

    /// The state file naming the scheduler that holds this configuration's entries: `scheduler`
    /// for the default configuration, `scheduler-TAG` for another one sharing the state directory.
    public var schedulerRecord: String {
        let owner = context.configuration
        return owner.isDefault ? StateFiles.schedulerFile : StateFiles.schedulerFile + "-" + owner.tag
    }

    // MARK: Apply

    /// Reads the saved settings and reconciles the scheduler with them, under a lock so the
    /// last apply always sees the last saved settings.
    /// - Parameter choosing: the scheduler choice was just made, so it is honoured even when the
    ///   saved value did not change (entries `--scheduler` put elsewhere move to it).
    public func apply(choosing: Bool = false) throws(PreferencesError) -> ApplyOutcome {
        try underApplyLock { loaded in applyLocked(loaded, choosing: choosing) }
    }

    /// Runs `body` with the saved settings, read under the apply lock (every reconcile takes it).
    func underApplyLock<T>(_ body: (LoadedPreferences) -> T) throws(PreferencesError) -> T {
        let lock: HeldLock
        do {
            lock = try context.state.lock(Self.applyLock)
        } catch {
            throw .file(error)
        }
        defer { lock.release() }
        return body(try context.store.load())
    }

    private func applyLocked(_ loaded: LoadedPreferences, choosing: Bool) -> ApplyOutcome {
        recordSession()
        let placed = placement()
        let choice = schedulerChoice(for: loaded.preferences, placement: placed, probe: context.probe(), choosing: choosing)
        let makeEntry = entry(for:)
        guard let kind = choice.kind, let gateway = gateway(for: kind) else {
            let reason = choice.warnings.first ?? "no scheduler available"
            let report = LocalReminders.apply(loaded.preferences, gateway: UnavailableGateway(reason: reason), reminders: reminders,
                                              entry: makeEntry)
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, notice: loaded.notice)
        }
        let report = LocalReminders.apply(loaded.preferences, gateway: gateway, reminders: reminders, entry: makeEntry)
        // Only once the chosen scheduler holds the plan are the others emptied: if it failed,
        // the old entries keep the reminder coming (a stale one delivers nothing anyway).
        guard report.succeeded else {
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, notice: loaded.notice)
        }
        let moves = moveOff(except: kind, recorded: placed?.holder, preferences: loaded.preferences)
        guard moves.allSatisfy(\.report.succeeded) else {
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, moves: moves, notice: loaded.notice)
        }
        let record = SchedulerPlacement.recording(kind, saved: loaded.preferences.scheduler, override: choice.forced ? context.forcedSchedulerWords : nil,
                                                  choosing: choosing, previous: placed)
        _ = try? context.state.write(schedulerRecord, record.text)
        let change = SchedulerChange.made(onto: kind, report: report, moves: moves, planned: Set(LocalReminders.plan(loaded.preferences).map(\.id)),
                                          recorded: placed?.holder, why: choice.why)
        return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, moves: moves, change: change, notice: loaded.notice)
    }

    /// Remembers this desktop session's bus address for jobs that start without one.
    func recordSession() {
        guard let session = SessionEnvironment.capture(context.lookup) else { return }
        _ = try? context.state.write(StateFiles.sessionFile, session.text)
    }

    // MARK: Delivery

    /// What `notif deliver ID` does: check the saved settings again, deliver at most once per
    /// local day, record the outcome in deliveries.jsonl. A scheduled run at another time than
    /// the reminder's in the user's zone does nothing and records nothing.
    public func deliver(_ reminder: LocalReminder, kind: DeliveryKind) -> DeliveryRecord {
        let lock = try? context.state.lock(Self.deliverLock)
        defer { lock?.release() }
        let now = context.clock.now()
        let preferences: NotificationPreferences
        do {
            preferences = try context.store.load().preferences
        } catch {
            return log(reminder, kind: kind, now: now, .failed, "cannot read settings: \(error)")
        }
        let decision: DeliveryDecision = kind == .test
            ? DeliveryDecision.decideTest(preferences: preferences)
            : DeliveryDecision.decide(reminder, kind: kind, preferences: preferences,
                                      lastDelivered: context.state.lastDelivered()[reminder.id], now: now, zone: context.zone)
        switch decision {
        case .skip(let why):
            return log(reminder, kind: kind, now: now, .skipped, why)
        case .notTheTime(let why):
            // The run an entry has for the other half of the year: not an attempt, not logged.
            return DeliveryRecord(time: ISO8601.format(now, in: context.zone), day: context.zone.localDateTime(of: now).date,
                                  reminder: reminder.id, kind: kind, outcome: .skipped, detail: why)
        case .deliver:
            break
        }
        // A reminder offers its buttons; a test notification does not.
        let handoff = kind == .test ? nil : actionHandoff(for: reminder)
        switch show(summary: reminder.title, body: reminder.body, handoff: handoff) {
        case .success(let how):
            if kind != .test {
                let today = context.zone.localDateTime(of: now).date
                do {
                    try context.state.recordDelivered(reminder.id, on: today)
                } catch {
                    return log(reminder, kind: kind, now: now, .delivered, how + "; could not record the day: \(error)")
                }
            }
            return log(reminder, kind: kind, now: now, .delivered, how)
        case .failure(let error):
            return log(reminder, kind: kind, now: now, .failed, error.message)
        }
    }

    /// Shows one notification through the desktop notification service, finding the session
    /// bus the way scheduled jobs must (this session, the recorded one, the user bus).
    public func show(summary: String, body: String, handoff: (any ActionHandoff)? = nil) -> Result<String, GatewayError> {
        let recorded = (try? context.state.read(StateFiles.sessionFile)).map(SessionEnvironment.init(parsing:))
        let environments = SessionEnvironment.candidates(current: context.lookup, recorded: recorded, uid: getuid())
        let icon = AppIcon.icon(executable: context.executable, lookup: context.lookup)
        return DesktopNotifier(runner: context.runner, icon: icon).show(summary: summary, body: body, environments: environments, handoff: handoff)
    }

    /// The detached waiter that shows `reminder` with its buttons, when notif's own program is
    /// there to run it.
    func actionHandoff(for reminder: LocalReminder) -> (any ActionHandoff)? {
        guard let program = context.executable, context.isExecutable(program) else { return nil }
        return DetachedActionWaiter(program: program, reminderID: reminder.id, inSystemdUnit: context.lookup("INVOCATION_ID") != nil)
    }

    private func log(_ reminder: LocalReminder, kind: DeliveryKind, now: Instant, _ outcome: DeliveryOutcome, _ detail: String) -> DeliveryRecord {
        log(reminder.id, kind: kind, now: now, outcome, detail)
    }

    /// Appends a record to deliveries.jsonl (a failure to log is noted in the returned record).
    public func log(_ id: String, kind: DeliveryKind, now: Instant, _ outcome: DeliveryOutcome, _ detail: String) -> DeliveryRecord {
        var record = DeliveryRecord(
            time: ISO8601.format(now, in: context.zone), day: context.zone.localDateTime(of: now).date,
            reminder: id, kind: kind, outcome: outcome, detail: detail)
        do {
            try context.deliveryLog.append(record)
        } catch {
            record.detail += " (not logged: \(error))"
        }
        return record
    }
}
