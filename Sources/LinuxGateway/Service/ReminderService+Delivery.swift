import Glibc
import SharedLogic
import Storage

/// `notif deliver ID` and `notif test`: the checks, the notification shown, the outcome recorded.
extension ReminderService {
    static let deliverLock = "deliver.lock"

    /// What `notif deliver ID` does: check the saved settings again, deliver at most once per
    /// local day, record the outcome in deliveries.jsonl. A scheduled run at another time than
    /// the reminder's in the user's zone does nothing and records nothing. `entrySince`: when the
    /// entry that asks was written, when known (a catch-up shows only a run missed while it existed).
    public func deliver(_ reminder: LocalReminder, kind: DeliveryKind, entrySince: Instant? = nil) -> DeliveryRecord {
        let lock = try? context.state.lock(Self.deliverLock)
        defer { lock?.release() }
        let now = context.clock.now()
        let preferences: NotificationPreferences
        do {
            // A scheduled run may meet settings.json mid-write (an editor saving at 09:00): a file
            // that does not parse, or is not there, is read again once it has been quiet.
            preferences = try (kind == .test ? context.store.load() : context.store.loadSettled()).preferences
        } catch {
            return log(reminder, kind: kind, now: now, .failed, "cannot read settings: \(error)")
        }
        let decision: DeliveryDecision = kind == .test
            ? DeliveryDecision.decideTest(preferences: preferences)
            : DeliveryDecision.decide(reminder, kind: kind, preferences: preferences,
                                      lastDelivered: context.state.lastDelivered()[reminder.id], now: now, zone: context.zone,
                                      entrySince: entrySince)
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
}
