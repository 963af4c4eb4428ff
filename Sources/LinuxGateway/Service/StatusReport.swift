import SharedLogic
import Storage

/// Everything `notif status` and the page's status area show: settings, scheduler, the
/// reminders' typed status (planned vs installed, which entries cannot fire, the next reminder)
/// and the last delivery. The `String` views below are the command line's words for it.
public struct StatusReport: Sendable {
    /// The saved settings (the defaults when `settingsProblem` says they cannot be read).
    public var preferences: NotificationPreferences
    /// Why settings.json cannot be read; the rest says what is installed and when it fires.
    public var settingsProblem: PreferencesError?
    public var choice: SchedulerChoice
    /// Whether the chosen scheduler will fire now (`notif daemon is not running`...), or nil when nothing needs saying.
    public var schedulerState: String?
    /// The one status of the reminders, computed once.
    public let reminders: ReminderStatus
    /// The last reminder sent (accepted by the notification service).
    public var lastDelivery: DeliveryRecord?
    /// The last attempt, when it is not `lastDelivery` (waiting, missed, failed, skipped).
    public var lastAttempt: DeliveryRecord?
    /// A waiter waits now to send the reminder of `lastAttempt` (its record says `waiting`).
    public var waiting = false
    public var warnings: [String]
    /// Each scheduler: whether it can hold the entries here and fire them, and why.
    public var schedulers: [SchedulerUsability] = []

    public var planned: [String] { reminders.planned }
    /// Reminder ids with an entry on the chosen scheduler (nil when it could not be read or there is none).
    public var installed: [String]? { reminders.installed.map { $0.keys.sorted() } }
    /// Unknown (false) while the settings cannot be read.
    public var inSync: Bool { settingsProblem == nil && reminders.inSync }
    /// How the entries differ from the plan, in words.
    public var outOfSync: [String] { reminders.outOfSync.map(StatusWords.problem) }
    /// When each installed entry really fires, in words, by reminder id
    /// (`cron at 03:30 system time (Etc/UTC), 09:00 in Asia/Kolkata`), or that it cannot.
    public var firing: [String: String] {
        var result: [String: String] = [:]
        for (id, entry) in reminders.installed ?? [:] {
            if let why = reminders.cannotFire[id] {
                result[id] = "cannot fire: " + StatusWords.cannotFire(why)
            } else if let firing = entry.firing {
                result[id] = FiringWords.text(firing)
            }
        }
        return result
    }
    /// `reminders.next` as a time. Stored, not computed: Swift 6.3's optimizer crashes
    /// ("Found outside of lifetime use") on a switch over it inlined into the command line.
    public let nextReminder: Instant?
    /// The reminder's time in the zone notif shows, when the entries fire at another (`nextReminder`).
    public let wantedReminder: Instant?
    /// Why there is no next reminder (`off (Tips & Updates is off)`, `permission is Not decided`...).
    public let noReminderReason: String?
    /// Since when today's reminder waits for a notification service (`reminders.next` is `.waiting`).
    public let waitingSince: Instant?

    public init(preferences: NotificationPreferences, settingsProblem: PreferencesError? = nil, choice: SchedulerChoice, schedulerState: String?,
                reminders: ReminderStatus, lastDelivery: DeliveryRecord?, warnings: [String], schedulers: [SchedulerUsability]) {
        self.preferences = preferences
        self.settingsProblem = settingsProblem
        self.choice = choice
        self.schedulerState = schedulerState
        self.reminders = reminders
        self.lastDelivery = lastDelivery
        self.warnings = warnings
        self.schedulers = schedulers
        switch reminders.next {
        case .at(let time, _, let wanted):
            nextReminder = time
            wantedReminder = wanted
            noReminderReason = nil
            waitingSince = nil
        case .waiting(_, let since):
            nextReminder = nil
            wantedReminder = nil
            noReminderReason = nil
            waitingSince = since
        case .none(let why):
            nextReminder = nil
            wantedReminder = nil
            noReminderReason = StatusWords.noReminder(why)
            waitingSince = nil
        }
    }
}

extension ReminderService {
    /// The copies `notif edit` kept (an editor that failed, a signal, no answer) or has open now:
    /// what they hold is not in use until it is saved.
    func keptEdits() -> [String] {
        let directory = context.paths.configDirectory
        return ((try? FileIO.names(in: directory)) ?? []).filter { $0.hasPrefix("settings.edit-") && $0.hasSuffix(".json") }.sorted().map {
            "\(Posix.join(directory, $0)) is an edit of settings.json that `notif edit` kept, or has open: it is not in use; "
                + "copy what you want from it with `notif edit`, then delete it"
        }
    }

    /// Reads the current state without changing anything. Settings that cannot be read are
    /// said (`settingsProblem`), and the entries are still read: what is installed, when it fires.
    public func status() -> StatusReport {
        var settingsProblem: PreferencesError?
        let preferences: NotificationPreferences
        var mistyped: [String] = []
        do {
            let loaded = try context.store.load()
            preferences = loaded.preferences
            mistyped = PreferencesCodec.mistypedKeys(in: loaded.document, catalog: context.catalog)
        } catch {
            settingsProblem = error
            preferences = NotificationPreferences()
        }
        let probe = context.probe()
        let placed = placement()
        let choice = schedulerChoice(for: preferences, placement: placed, probe: probe, choosing: false)
        let planned = LocalReminders.plan(preferences, reminders: reminders)
        // Scheduler warnings matter only when something should fire (as apply and set say them).
        var warnings = mistyped + keptEdits() + (planned.isEmpty ? [] : choice.warnings)
        var entries: [String: InstalledEntry]?
        var unreadable = false
        // The entries stay where the last apply put them until the next apply moves them: read
        // that scheduler when it holds any (an override put them there, say, and the choice now
        // differs), else the one in use.
        var read = choice.kind
        var heldElsewhere: [String: String]?
        var cannotWrite: String?
        // The running daemon's zone, for built-in entries written without one.
        var daemonZone: String?
        if let holder = placed?.holder, holder != choice.kind, let gateway = gateway(for: holder),
           let found = try? gateway.installed(), !found.isEmpty {
            read = holder
            heldElsewhere = found
        }
        if let kind = read, let gateway = gateway(for: kind) {
            do {
                let found: [String: String]
                if let heldElsewhere { found = heldElsewhere } else { found = try gateway.installed() }
                // What apply would write for each planned or installed reminder; why it cannot, once.
                var wanted: [String: String] = [:]
                for reminder in reminders where found[reminder.id] != nil || planned.contains(reminder) {
                    do {
                        wanted[reminder.id] = try gateway.render(entry(for: reminder))
                    } catch {
                        if !warnings.contains(error.message) { warnings.append(error.message) }
                        if planned.contains(reminder) { cannotWrite = cannotWrite ?? error.message }
                    }
                }
                var typed: [String: InstalledEntry] = [:]
                let delivered = context.state.lastDelivered()
                daemonZone = kind == .embedded ? runningDaemonZone() : nil   // asked once
                for (id, text) in found {
                    var entry = gateway.entry(id, installed: text, userZone: context.zone)
                    entry.programRunnable = entry.program.map(context.isExecutable) ?? true
                    entry.current = wanted[id] == text
                    // A built-in entry without a zone fires in the running daemon's: maybe not this run's.
                    let inDaemonsZone = entry.zoneVariable == nil && daemonZone != nil
                    if !entry.current || inDaemonsZone { entry.showing = showing(of: entry, lastDelivered: delivered[id], daemonZone: daemonZone) }
                    typed[id] = entry
                }
                entries = typed
                for entry in typed.values.sorted(by: { $0.id < $1.id }) where entry.runsFromBuildFolder {
                    warnings.append("the \(entry.id) entry runs notif from a build folder; run `make install` and then `notif apply` so it points at a stable path")
                }
            } catch {
                // Unknown is not in sync, even with nothing planned: an entry may still be there.
                unreadable = true
                warnings.append("cannot read the \(gateway.name) entries: \(error.message)")
            }
        }
        // An entry notif cannot write (its program or a place fails the trust rule) is the cause;
        // the scheduler's readiness is not, and its advice (`--install-autostart`) is refused too.
        if cannotWrite != nil { warnings.removeAll { choice.warnings.contains($0) } }
        // Only entries that are there can be moved.
        if let kind = choice.kind, let recorded = placed?.holder, recorded != kind, heldElsewhere != nil {
            warnings.append("entries were last installed with \(recorded.rawValue); `notif apply` moves them to \(kind.rawValue): \(choice.why)")
        }
        // One look at the wait locks for the whole report: a waiter ending meanwhile changes nothing in it.
        let waiting = waitingReminders()
        let facts = SchedulerFacts(scheduler: read, entries: entries,
                                   schedulerCannotFire: read.flatMap { Self.cannotFire(on: $0, probe: probe) },
                                   movesTo: read != choice.kind ? choice.kind : nil, waiting: waiting, cannotWrite: cannotWrite,
                                   owed: settingsProblem == nil ? owedReminders(preferences, waiting: waiting) : [])
        let status = ReminderStatus.compute(settingsProblem == nil ? preferences : nil, facts: facts, unreadable: unreadable,
                                            nextFire: nextFire(), reminders: reminders)
        if case .at(_, _, let wanted?) = status.next {
            let shown = "the installed entry shows the reminder at another time than \(context.zone.localDateTime(of: wanted).shortDisplay) in \(context.zone.name)"
            // With no TZ here, apply writes the entry without one again: the daemon's TZ is the cause (trial 40, D5).
            if let daemonZone, context.lookup("TZ") == nil, entries?.values.contains(where: { $0.zoneVariable == nil }) == true {
                warnings.append("\(shown): `notif daemon` runs with TZ=\(TerminalText.safe(daemonZone)), and the entry, written without TZ, fires in that zone; "
                    + "start `notif daemon` without TZ, or run `notif apply` with TZ set to your zone")
            } else {
                warnings.append("\(shown) (it was written for another zone): `notif apply` brings them together")
            }
        }
        let (shown, attempt) = lastRecords()
        var report = StatusReport(
            preferences: preferences, settingsProblem: settingsProblem, choice: choice,
            schedulerState: choice.kind.flatMap { Self.state(of: $0, probe: probe) }, reminders: status,
            lastDelivery: shown, warnings: warnings, schedulers: SchedulerUsability.all(probe: probe))
        report.lastAttempt = attempt
        report.waiting = attempt.map { $0.outcome == .waiting && waiting[$0.reminder] != nil } ?? false
        return report
    }

    /// The reminders whose waiter waits now for a notification service, with when the day's
    /// wait began (today's first `waiting` record, as its late record counts; now, when there
    /// is none to read).
    public func waitingReminders() -> [String: Instant] {
        var result: [String: Instant] = [:]
        let today = context.zone.localDateTime(of: context.clock.now()).date
        for reminder in reminders where context.state.isWaiting(reminder.id) {
            result[reminder.id] = first(.waiting, of: reminder, on: today)?.at ?? context.clock.now()
        }
        return result
    }

    /// The planned reminders whose today's is due and not sent (the rule `notif deliver` and the
    /// daemon keep, `decide`) while nothing in `waiting` waits to send it, once a run tried today
    /// (its record says `waiting` or `failed`) or, its entry known to have been there before
    /// today's time, it has been due for a minute with no run at all (every scheduler runs it
    /// within a minute of its time: later, none came, as when cron skipped it after a long suspend).
    public func owedReminders(_ preferences: NotificationPreferences, waiting: [String: Instant]) -> Set<String> {
        let now = context.clock.now(), today = context.zone.localDateTime(of: now).date
        return Set(LocalReminders.plan(preferences, reminders: reminders).filter { reminder in
            guard waiting[reminder.id] == nil, decide(reminder, preferences: preferences, now: now, waiting: false) == .deliver else { return false }
            let tried = (try? context.deliveryLog.newest(1, where: { $0.reminder == reminder.id && $0.kind != .test && $0.kind != .button }))?.first
            if let tried, [.waiting, .failed].contains(tried.outcome), tried.day == today { return true }
            // With no run, only an entry known to have been there before today's time owes it.
            return entrySince(of: reminder) != nil && decide(reminder, preferences: preferences, now: now.adding(seconds: -60), waiting: false) == .deliver
        }.map(\.id))
    }

    /// The last reminder sent, and the last attempt when that is another record (tests and
    /// button presses are neither).
    func lastRecords() -> (shown: DeliveryRecord?, attempt: DeliveryRecord?) {
        let attempts: @Sendable (DeliveryRecord) -> Bool = { $0.kind != .test && $0.kind != .button }
        let newest = (try? context.deliveryLog.newest(1, where: attempts))?.first
        guard let newest, newest.outcome != .delivered else { return (newest, nil) }
        let shown = (try? context.deliveryLog.newest(1) { attempts($0) && $0.outcome == .delivered })?.first
        return (shown, newest)
    }

    /// When an entry that is not what `apply` writes now really shows its reminder: its
    /// scheduler's runs, in the zone the entry gives `notif deliver` (its `TZ`, else the
    /// scheduler's: the system zone for cron; the running built-in daemon's `TZ`, else the system
    /// zone; the user manager's for systemd).
    /// - Parameter daemonZone: the running built-in daemon's `TZ` (`runningDaemonZone`).
    func showing(of entry: InstalledEntry, lastDelivered: CivilDate?, daemonZone: String?) -> EntryShowing {
        guard let firing = entry.firing, let reminder = reminders.first(where: { $0.id == entry.id }) else { return .asWanted }
        let system = context.systemZone, zoneInfo = context.lookup("TZDIR")
        // A built-in entry without a zone is in the running daemon's.
        let unnamed: String? = if case .embedded = firing.schedule { daemonZone } else { nil }
        // By name as `TZ` gives it, the way `notif deliver` finds it (glibc's rules).
        func zone(_ name: String?) -> ZoneRules? {
            guard let name = name ?? unnamed, name != system.name else { return system }
            return SystemTimeZone.current(environment: name, zoneInfoDirectory: zoneInfo)
        }
        let own: String?
        switch firing.schedule {
        case .cron(_, let systemZone, _, _): own = systemZone
        case .systemd(_, let managerZone): own = managerZone
        case .embedded(_, _, let named): own = named ?? unnamed
        }
        guard let deliveryZone = zone(entry.zoneVariable ?? own) else { return .never }
        return EntryShowing.of(reminder, firing: firing, deliveryZone: deliveryZone, zone: zone, after: context.clock.now(),
                               lastDelivered: lastDelivered)
    }

    /// The `TZ` the running `notif daemon` started with, as it recorded it; nil when none runs,
    /// or it runs without one (then the system zone).
    func runningDaemonZone() -> String? {
        guard context.probe().embeddedDaemonRunning, let text = try? context.state.read(StateFiles.daemonZoneFile), !text.isEmpty else { return nil }
        return text
    }

    /// Each reminder's next firing time in the zone notif shows, whatever the settings: the next
    /// one `deliver` would show (not on a local day it was already delivered).
    public func nextFire() -> [String: Instant] {
        let now = context.clock.now()
        let delivered = context.state.lastDelivered()
        var result: [String: Instant] = [:]
        for reminder in reminders {
            result[reminder.id] = DeliveryDecision.nextShowing(of: reminder, after: now, lastDelivered: delivered[reminder.id], zone: context.zone)
        }
        return result
    }

    /// Why nothing on `kind` fires now, when that is so: a systemd timer with no manager on a
    /// machine not started with systemd, built-in entries with no `notif daemon` (nor its
    /// autostart entry). A scheduler that waits for a login or a daemon restart still fires.
    public static func cannotFire(on kind: SchedulerKind, probe: SchedulerProbe) -> CannotFire? {
        guard SchedulerUsability.of(kind, probe: probe).state == .unusable else { return nil }
        switch kind {
        case .systemd: return .noSystemd
        case .embedded: return .daemonNotRunning
        case .cron: return nil
        }
    }

    /// A few words on whether `kind` fires on this machine now.
    static func state(of kind: SchedulerKind, probe: SchedulerProbe) -> String? {
        switch kind {
        case .systemd:
            if probe.systemdUserManagerRunning { return "user manager running" }
            return probe.systemdBooted ? "no systemd user manager: starts at next login"
                : "no systemd user manager, and this machine was not started with systemd: its timers cannot fire"
        case .cron: return probe.cronDaemonRunning ? nil : "the cron daemon is not running"
        case .embedded: return probe.embeddedDaemonRunning ? "notif daemon running" : "notif daemon is not running"
        }
    }

    /// `status --json`.
    public func json(_ report: StatusReport) -> JSONValue {
        let preferences = report.preferences
        let known = report.settingsProblem == nil
        var prefs = PreferencesCodec.orderedMembers(preferences, catalog: context.catalog).map { JSONMember($0.0, $0.1) }
        prefs.append(JSONMember("onboardingCompleted", .bool(preferences.onboardingCompleted)))
        return .object([
            JSONMember("mode", known ? .string(preferences.mode.rawValue) : .null),
            JSONMember("preferences", known ? .object(prefs) : .null),
            JSONMember("permission", known ? .string(preferences.permission.rawValue) : .null),
            JSONMember("settingsProblem", report.settingsProblem.map { .string($0.description) } ?? .null),
            JSONMember("scheduler", report.choice.kind.map { .string($0.rawValue) } ?? .null),
            JSONMember("schedulerChoice", known ? .string(report.choice.preference.rawValue) : .null),
            JSONMember("schedulerForced", .bool(report.choice.forced)),
            JSONMember("schedulerReason", .string(report.choice.why)),
            JSONMember("schedulers", .array(report.schedulers.map { usability in
                .object([
                    JSONMember("name", .string(usability.choice.rawValue)),
                    JSONMember("state", .string(usability.state.word)),
                    JSONMember("reason", .string(usability.reason)),
                ])
            })),
            JSONMember("schedulerState", report.schedulerState.map { .string($0) } ?? .null),
            JSONMember("planned", known ? .array(report.planned.map { .string($0) }) : .null),
            JSONMember("holder", report.reminders.scheduler.map { .string($0.rawValue) } ?? .null),
            JSONMember("installed", report.installed.map { .array($0.map { .string($0) }) } ?? .null),
            JSONMember("inSync", .bool(report.inSync)),
            JSONMember("outOfSync", .array(report.outOfSync.map { .string($0) })),
            JSONMember("firing", .object(report.firing.keys.sorted().filter { report.reminders.cannotFire[$0] == nil }
                .map { JSONMember($0, .string(report.firing[$0]!)) })),
            JSONMember("firingSchedule", .object((report.reminders.installed ?? [:]).sorted { $0.key < $1.key }
                .compactMap { id, entry in entry.firing.map { JSONMember(id, $0.json) } })),
            JSONMember("cannotFire", .object(report.reminders.cannotFire.keys.sorted().map { id in
                JSONMember(id, .object([
                    JSONMember("reason", .string(StatusWords.code(report.reminders.cannotFire[id]!))),
                    JSONMember("message", .string(StatusWords.cannotFire(report.reminders.cannotFire[id]!))),
                ]))
            })),
            JSONMember("nextReminder", report.nextReminder.map { .string(ISO8601.format($0, in: context.zone)) } ?? .null),
            JSONMember("wantedReminder", report.wantedReminder.map { .string(ISO8601.format($0, in: context.zone)) } ?? .null),
            JSONMember("nextReminderNone", report.noReminderReason.map { .string($0) } ?? .null),
            JSONMember("nextReminderWaiting", report.waitingSince.map { .string(ISO8601.format($0, in: context.zone)) } ?? .null),
            JSONMember("owedToday", report.reminders.owed.map { .string($0) } ?? .null),
            JSONMember("lastDelivery", report.lastDelivery?.json ?? .null),
            JSONMember("lastAttempt", report.lastAttempt?.json ?? .null),
            JSONMember("waiting", .bool(report.waiting)),
            JSONMember("warnings", .array(report.warnings.map { .string($0) })),
        ])
    }
}
