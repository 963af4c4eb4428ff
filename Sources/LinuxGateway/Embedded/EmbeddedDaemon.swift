import SharedLogic
import Storage

/// `notif daemon`'s loop: wake, look at the clock, the zone and the schedule, deliver what is
/// due through `ReminderService.deliver`, sleep until the next reminder (or a change the sleeper
/// notices: a clock set, a resume, the zone, settings or entries), until the sleeper says stop.
/// The clock comes from the context and the zone from `zone` (asked again on every wake), so
/// tests drive it with a simulated clock and sleeper.
public final class EmbeddedDaemon {
    private var context: NotifContext
    private let zone: () -> ZoneRules
    private let sleeper: any DaemonSleeper
    private let log: (String) -> Void
    private var planner = DaemonPlanner()
    private let schedule: EmbeddedScheduler
    private let settingsFile: String
    private var cachedEntries: (stamp: FileStatus?, entries: [EmbeddedEntry])?
    private var settingsStamp: FileStatus??
    /// What the log last said about settings it could not use (said once, until it changes).
    private var settingsProblemSaid: String?
    /// How long settings.json must be quiet before a file that does not parse is believed bad.
    var settlingTime: Double = 1
    private var lastZone: ZoneRules?
    /// More work for every wake (Account projects poll their server here); returns when it
    /// next wants a wake (nil: never), so the nap is never longer than that.
    public var onWake: ((Instant) -> Instant?)?
    private var extraDue: Instant?
    /// When each reminder was last sent again for `unsent`, so a run that keeps failing is tried
    /// at most once a `retryPause`; and when the next such try is due, if one waits.
    private var lastUnsentTry: [String: Instant] = [:]
    private var unsentDue: Instant?
    let retryPause: Int64 = 60
    /// Asked before every wake: why notif's own program is gone (removed, replaced), or nil.
    /// A daemon whose program is gone delivers nothing more and stops (it says why).
    public var programGone: (() -> String?)?

    public init(context: NotifContext, zone: @escaping () -> ZoneRules, sleeper: any DaemonSleeper, log: @escaping (String) -> Void) {
        self.context = context
        self.zone = zone
        self.sleeper = sleeper
        self.log = log
        schedule = EmbeddedScheduler(paths: context.paths, owner: context.configuration)
        settingsFile = context.paths.settingsFile
    }

    /// Runs until the sleeper reports a stop signal.
    public func run() {
        repeat {
            if let why = programGone?() {
                log("\(why): this daemon delivers nothing more and stops")
                return
            }
            wake()
        } while sleeper.nap(until: nextWake()) != .stop
    }

    /// The planner's next wake, or the extra work's when that comes first.
    func nextWake() -> Instant? {
        let due = planner.nextWake(now: context.clock.now())
        return [due, extraDue, unsentDue].compactMap { $0 }.min()
    }

    /// One wake: pick up edited settings (and, after a zone change, entries to mend), then make
    /// the attempts the planner asks for.
    func wake() {
        context.zone = zone()
        // The zone watch is a run that mends, as `notif deliver` is: a changed zone reconciles.
        if let lastZone, lastZone != context.zone { settingsStamp = nil }
        lastZone = context.zone
        let settingsRead = reconcileIfSettingsChanged()
        let now = context.clock.now()
        let current = entries()
        // An entry written with TZ set is in that zone, whatever TZ the daemon was started with.
        var zones: [String: ZoneRules] = [:]
        for zone in Set(current.compactMap(\.zone)) { zones[zone] = SystemTimeZone.current(environment: zone) }
        var attempts = planner.wake(now: now, zone: context.zone, entries: current, zoneOf: { $0.zone.flatMap { zones[$0] } })
        // Settings changed and read (a file that could not be read at 09:00 mended, say): a
        // reminder due today and not shown yet is shown now, as any catch-up decides.
        if settingsRead {
            for entry in current where !attempts.contains(where: { $0.id == entry.id }) {
                attempts.append(.init(id: entry.id, kind: .catchUp, reason: .settingsChange))
            }
        }
        attempts += unsent(current.filter { entry in !attempts.contains { $0.id == entry.id } }, now: now, zones: zones)
        for attempt in attempts {
            guard let reminder = LocalReminders.reminder(id: attempt.id) else {
                log("the built-in schedule has an entry for unknown reminder \(attempt.id); `notif apply` removes it")
                continue
            }
            var delivering = context
            let entry = current.first { $0.id == attempt.id }
            if let zone = entry?.zone.flatMap({ zones[$0] }) { delivering.zone = zone }
            let record = ReminderService(context: delivering).deliver(reminder)
            log("\(record.time) \(record.reminder) \(record.outcome.rawValue) (\(record.kind.rawValue), \(attempt.reason.rawValue))"
                + (record.detail.isEmpty ? "" : ": \(record.detail)"))
        }
        extraDue = onWake?(now)
    }

    /// The entries whose reminder is due today and not sent, with no waiter waiting for it: its
    /// waiter ended without sending it (killed, or stopped by a signal) or a run failed. Any wake
    /// sends it, as a catch-up would; a waiter's end is one (`DaemonWatches.waiters`).
    private func unsent(_ entries: [EmbeddedEntry], now: Instant, zones: [String: ZoneRules]) -> [DaemonPlanner.Attempt] {
        unsentDue = nil
        guard !entries.isEmpty, let preferences = try? context.store.load().preferences else { return [] }
        var attempts: [DaemonPlanner.Attempt] = []
        for entry in entries {
            guard let reminder = LocalReminders.reminder(id: entry.id) else { continue }
            var deciding = context
            if let zone = entry.zone.flatMap({ zones[$0] }) { deciding.zone = zone }
            guard ReminderService(context: deciding).decide(reminder, preferences: preferences, now: now) == .deliver else { continue }
            if let last = lastUnsentTry[entry.id], now.seconds < last.seconds + retryPause {
                let next = last.adding(seconds: retryPause)
                unsentDue = unsentDue.map { min($0, next) } ?? next
                continue
            }
            lastUnsentTry[entry.id] = now
            attempts.append(.init(id: entry.id, kind: .catchUp, reason: .unsent))
        }
        return attempts
    }

    /// The schedule, read again only when its directory changed.
    private func entries() -> [EmbeddedEntry] {
        let stamp = schedule.stamp()
        if let cached = cachedEntries, cached.stamp == stamp { return cached.entries }
        do {
            let entries = try schedule.entries()
            cachedEntries = (stamp, entries)
            return entries
        } catch {
            log("cannot read the built-in schedule: \(error.message)")
            return cachedEntries?.entries ?? []
        }
    }

    /// Settings edited by hand (no `notif apply` after) still take effect: when settings.json
    /// changes and the built-in scheduler holds notif's entries, its entries are reconciled.
    /// The first wake counts as a change. A file that does not parse, or is not there, is read
    /// again once it has been quiet for a moment (it may still be being written); if it stays
    /// so, the schedule is kept as it is and the log says why, once.
    /// Whether the settings changed and were read.
    private func reconcileIfSettingsChanged() -> Bool {
        let stamp = try? FileStatus.of(settingsFile)
        if let known = settingsStamp, known == stamp { return false }
        settingsStamp = .some(stamp)
        // The daemon never moves the reminder to another zone: whatever TZ it was started with
        // (at a login without one, say, or in a shell with another), it reconciles as the run
        // that wrote its entries did, in their zone (their TZ, or none: the system zone).
        var reconciling = context
        if let written = entries().first {
            let zone = written.zone, lookup = context.lookup
            reconciling.lookup = { $0 == "TZ" ? zone : lookup($0) }
            reconciling.zone = zone.map { SystemTimeZone.current(environment: $0) } ?? context.systemZone
        }
        let service = ReminderService(context: reconciling)
        guard service.recordedScheduler() == .embedded else { return false }
        let problem: String
        do {
            if try reconciling.store.loadSettled(quiet: settlingTime).fileExisted {
                let report = try service.reconcile(on: .embedded)
                settingsProblemSaid = nil
                for outcome in report.outcomes where outcome.result != .unchanged {
                    log("settings changed: \(outcome.id) \(outcome.result.summary(for: outcome.id))")
                }
                return true
            }
            problem = "\(context.paths.settingsFile) is not there"
        } catch {
            problem = error.description
        }
        guard problem != settingsProblemSaid else { return false }
        settingsProblemSaid = problem
        log("settings not used: \(problem); the built-in schedule is kept as it is")
        return false
    }
}
