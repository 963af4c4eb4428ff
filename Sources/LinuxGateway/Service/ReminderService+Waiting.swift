import SharedLogic
import Storage

/// The reminder's waiter, once `deliver` found no notification service: it waits for one until
/// the day ends, then shows the reminder once.
extension ReminderService {
    /// How a wait ended.
    public enum WaitEnd {
        /// Shown (late), recorded: the notification, and the connection that hears its buttons.
        case shown(DesktopNotifier.Shown)
        /// Nothing more to show, and why is recorded (missed, turned off, stopped), or another
        /// run showed it.
        case ended
    }

    /// Waits for a notification service (`ServiceWatch`) to show the reminder of local `day`,
    /// until the day ends. Each look is made under the deliver lock, with the settings read
    /// again and `DeliveryDecision` asked again: turned off meanwhile, that is recorded and the
    /// wait ends; shown by another run, it ends quietly. A reminder shown is recorded
    /// `delivered`, with how late and why. At the end of the day: `missed`, and why. SIGTERM
    /// (a logout, a shutdown) ends the wait and is recorded: a later run that day tries again.
    /// The caller holds the reminder's wait lock.
    /// - Parameters:
    ///   - waitingSince: when the run that found no service began the wait.
    ///   - problem: why no service could be reached then.
    ///   - zone: the zone notif shows, asked again on every wake (it may change meanwhile).
    ///   - watch: the connections of the first try (`firstTry`), kept.
    public func waitForService(_ reminder: LocalReminder, day: CivilDate, since waitingSince: Instant, problem: String,
                               watch: ServiceWatch? = nil, zone: () -> ZoneRules) -> WaitEnd {
        let context = self.context
        guard let watch = watch ?? ServiceWatch(places: { ServiceWatch.places(context) }) else {
            _ = log(reminder.id, kind: .scheduled, now: context.clock.now(), .failed,
                    "cannot wait for a notification service: this kernel offers notif no inotify, timerfd or signalfd", day: day)
            return .ended
        }
        var problem = problem
        while true {
            var now = context.clock.now()
            var current = context
            current.zone = zone()
            let service = ReminderService(context: current)
            let end = ReminderClock.fireInstant(of: DailyTime(hour: 0, minute: 0), on: day.adding(days: 1), in: current.zone)
            if now >= end {
                _ = service.log(reminder.id, kind: .scheduled, now: now, .missed,
                                DeliveryLateness.missed(waitingSince: waitingSince, lastProblem: problem, zone: current.zone), day: day)
                return .ended
            }
            switch service.look(reminder, day: day, now: now, waitingSince: waitingSince, problem: problem, watch: watch) {
            case .shown(let shown): return .shown(shown)
            case .stop: return .ended
            case .wait(let why): if let why { problem = why }
            }
            now = context.clock.now()
            // Before the time (a clock put back), the next look is at the time.
            let due = ReminderClock.fireInstant(of: reminder.time, on: day, in: current.zone)
            if watch.nap(until: now < due ? due : end, now: now) == .stop {
                _ = service.log(reminder.id, kind: .scheduled, now: context.clock.now(), .failed,
                                "stopped waiting for a notification service (ended by a signal, as at a logout or shutdown); "
                                    + Self.laterRun(reminder.id, on: service.recordedScheduler()), day: day)
                return .ended
            }
        }
    }

    /// The waiter's first try, on the connections its wait then goes on with, so that a `Notify`
    /// the service has not answered in time is awaited, never sent again (a slow service would
    /// show each one). Without a watch (no inotify), a plain try.
    public func firstTry(_ reminder: LocalReminder, notifier: DesktopNotifier, sessions: [(source: String, changes: [String: String?])])
        -> (watch: ServiceWatch?, result: Result<DesktopNotifier.Shown, GatewayError>) {
        let context = self.context
        guard let watch = ServiceWatch(places: { ServiceWatch.places(context) }) else {
            return (nil, notifier.show(summary: reminder.title, body: reminder.body, actions: ReminderAction.allCases, expireMilliseconds: 0,
                                       environments: sessions))
        }
        watch.refresh(sessions, notifier: notifier)
        return (watch, watch.tryShow(reminder, notifier: notifier, order: ServiceWatch.order(sessions, lookup: context.lookup)))
    }

    /// What still sends today's reminder once its waiter ended, on the scheduler holding it:
    /// `notif daemon` starts a new waiter itself; systemd's service runs at the next login; cron
    /// runs nothing more today. On any of them, a catch-up by hand sends it now.
    public static func laterRun(_ id: String, on scheduler: SchedulerKind?) -> String {
        let byHand = "`notif deliver --catch-up \(id)` sends it now"
        switch scheduler {
        case .embedded: return "notif daemon sends it again while it runs, or " + byHand
        case .systemd: return "your next login sends it, or " + byHand
        case .cron, nil: return byHand
        }
    }

    enum Look {
        case shown(DesktopNotifier.Shown)
        case stop
        /// Not yet; with why no service could be reached, when a try was made.
        case wait(String?)
    }

    /// One look, under the deliver lock: is it still due, and can a service show it now?
    private func look(_ reminder: LocalReminder, day: CivilDate, now: Instant, waitingSince: Instant, problem: String,
                      watch: ServiceWatch) -> Look {
        let lock = try? context.state.lock(Self.deliverLock)
        defer { lock?.release() }
        // A settings file that cannot be read now (being written, or broken) is no reason to give up.
        guard let preferences = try? context.store.load().preferences else { return .wait(nil) }
        switch decide(reminder, preferences: preferences, now: now, waiting: false) {
        case .skip(let why):
            _ = log(reminder.id, kind: .scheduled, now: now, .skipped, "turned off while waiting for a notification service: \(why)", day: day)
            return .stop
        case .notDue(.shownToday), .notDue(.waiting):
            return .stop
        case .notDue(let why) where isEntryAfterTime(why):
            // Its entry was made again after today's time (turned off and on): nothing more today.
            _ = log(reminder.id, kind: .scheduled, now: now, .skipped, "stopped waiting for a notification service: \(why.message)", day: day)
            return .stop
        case .notDue:
            // Not the time (the clock was put back): later.
            return .wait(nil)
        case .deliver:
            guard context.zone.localDateTime(of: now).date == day else { return .wait(nil) }
        }
        let sessions = LiveDesktop.sessions(context)
        let notifier = LiveDesktop.notifier(context)
        watch.refresh(sessions, notifier: notifier)
        switch watch.tryShow(reminder, notifier: notifier, order: ServiceWatch.order(sessions, lookup: context.lookup)) {
        case .success(let shown):
            _ = recordShown(reminder, day: day, now: context.clock.now(), waitingSince: waitingSince, waitingProblem: problem, words: shown.words)
            return .shown(shown)
        case .failure(let error):
            return .wait(error.message)
        }
    }

    private func isEntryAfterTime(_ why: DeliveryDecision.NotDue) -> Bool {
        if case .entryAfterTime = why { return true }
        return false
    }
}
