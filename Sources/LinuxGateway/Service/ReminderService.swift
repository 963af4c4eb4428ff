import Glibc
import SharedLogic
import Storage

/// notif's use cases over real files and schedulers: apply, deliver, test, status. The page and
/// the command line both go through here.
public struct ReminderService: Sendable {
    public let context: NotifContext

    public init(context: NotifContext) { self.context = context }

    static let applyLock = "apply.lock"
    static let deliverLock = "deliver.lock"
    static let crontabLock = "crontab.lock"

    // MARK: Schedulers

    /// The schedulers this build can drive.
    public static let availableSchedulers: Set<SchedulerKind> = [.systemd, .cron, .embedded]

    public func schedulerChoice(probe: SchedulerProbe? = nil) -> SchedulerChoice {
        SchedulerDetection.choose(forced: context.forcedScheduler, probe: probe ?? context.probe(), available: Self.availableSchedulers)
    }

    public func gateway(for kind: SchedulerKind) -> (any LocalNotificationGateway)? {
        switch kind {
        case .cron: return CronGateway(runner: context.runner, lockPath: context.paths.stateFile(Self.crontabLock))
        case .systemd:
            let probe = context.probe
            return SystemdTimerGateway(runner: context.runner, paths: context.paths, managerRunning: { probe().systemdUserManagerRunning })
        case .embedded: return EmbeddedScheduler(paths: context.paths)
        }
    }

    /// What a scheduled entry runs: `notif deliver ID`, and `notif deliver --catch-up ID` for
    /// runs that may come late (boot, a missed timer). Fails when notif's own program is gone.
    public func entry(for reminder: LocalReminder) throws(GatewayError) -> ScheduledEntry {
        ScheduledEntry(reminder: reminder, command: try command(["deliver", reminder.id]),
                       catchUpCommand: try command(["deliver", "--catch-up", reminder.id]))
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

    /// `notif ARGS` by absolute path. XDG locations set for this process are passed on through
    /// `/usr/bin/env`, since schedulers and session managers start programs without them.
    public func command(_ arguments: [String]) throws(GatewayError) -> [String] {
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

    // MARK: Apply

    /// Reads the saved settings and reconciles the scheduler with them, under a lock so the
    /// last apply always sees the last saved settings.
    public func apply() throws(PreferencesError) -> ApplyOutcome {
        try underApplyLock { loaded in applyLocked(loaded) }
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

    private func applyLocked(_ loaded: LoadedPreferences) -> ApplyOutcome {
        recordSession()
        let choice = schedulerChoice()
        let makeEntry = entry(for:)
        guard let kind = choice.kind, let gateway = gateway(for: kind) else {
            let reason = choice.warnings.first ?? "no scheduler available"
            let report = LocalReminders.apply(loaded.preferences, gateway: UnavailableGateway(reason: reason), entry: makeEntry)
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, notice: loaded.notice)
        }
        let report = LocalReminders.apply(loaded.preferences, gateway: gateway, entry: makeEntry)
        // Only once the chosen scheduler holds the plan are the others emptied: if it failed,
        // the old entries keep the reminder coming (a stale one delivers nothing anyway).
        guard report.succeeded else {
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, notice: loaded.notice)
        }
        let moves = moveOff(except: kind, preferences: loaded.preferences)
        if moves.allSatisfy(\.report.succeeded) {
            _ = try? context.state.write(StateFiles.schedulerFile, kind.rawValue + "\n")
        }
        return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, moves: moves, notice: loaded.notice)
    }

    /// Remembers this desktop session's bus address for jobs that start without one.
    func recordSession() {
        guard let session = SessionEnvironment.capture(context.lookup) else { return }
        _ = try? context.state.write(StateFiles.sessionFile, session.text)
    }

    // MARK: Delivery

    /// What `notif deliver ID` does: check the saved settings again, deliver at most once per
    /// local day, record the outcome in deliveries.jsonl.
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
        if case .skip(let why) = decision {
            return log(reminder, kind: kind, now: now, .skipped, why)
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
