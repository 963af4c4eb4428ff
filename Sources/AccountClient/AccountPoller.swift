import LinuxGateway
import SharedLogic

/// Push for Account projects on Linux: `notif daemon` polls the server's history every
/// `interval` seconds and shows items it has not shown before, while notifications are
/// allowed and Push Notifications is on. The first poll only records what is already there,
/// so an old history never floods the desktop. Guest projects never poll.
public final class AccountPoller {
    let account: AccountService
    let interval: Int64
    let log: (String) -> Void
    private var nextPoll: Instant?
    private var registrationChecked = false

    public init(account: AccountService, interval: Int64, log: @escaping (String) -> Void) {
        self.account = account
        self.interval = max(10, interval)
        self.log = log
    }

    /// Called on every wake of the daemon; polls when due. Returns the next poll's time.
    @discardableResult
    public func wake(now: Instant) -> Instant? {
        if let nextPoll, now < nextPoll { return nextPoll }
        let next = now.adding(seconds: interval)
        nextPoll = next
        poll(now: now)
        return next
    }

    private func poll(now: Instant) {
        guard let preferences = try? account.context.store.load().preferences, preferences.mode == .account,
              account.store.authToken() != nil else {
            registrationChecked = false
            return
        }
        if !registrationChecked {
            account.ensureRegistered()
            registrationChecked = true
        }
        let history: AccountService.History
        do {
            history = try account.history()
        } catch {
            log("server history: \(error.message)")
            return
        }
        if history.cachedAt != nil {
            log("server history: \(history.problem?.message ?? "unreachable"); will try again")
            return
        }
        let ids = Set(history.items.map(\.id))
        guard let shown = account.store.shownIDs() else {
            try? account.store.saveShownIDs(ids)
            log("server history: \(ids.count) earlier notifications noted; new ones will be shown")
            return
        }
        let fresh = history.items.filter { !shown.contains($0.id) }
        guard !fresh.isEmpty else { return }
        let allowed = preferences.permission == .granted && preferences.pushNotifications
        let reminders = account.reminders
        var done = shown.union(ids)
        for item in fresh.reversed() {
            let record: DeliveryRecord
            if !allowed {
                record = reminders.log("server:\(item.id)", kind: .push, now: now, .skipped,
                                       preferences.permission == .granted ? "Push Notifications is off" : "notifications are not allowed")
            } else {
                switch reminders.show(summary: item.title, body: item.body) {
                case .success(let how): record = reminders.log("server:\(item.id)", kind: .push, now: now, .delivered, how)
                case .failure(let error):
                    // Not marked as shown: the next poll tries again.
                    done.remove(item.id)
                    record = reminders.log("server:\(item.id)", kind: .push, now: now, .failed, error.message)
                }
            }
            log("\(record.time) \(record.reminder) \(record.outcome.rawValue): \(record.detail)")
        }
        try? account.store.saveShownIDs(done)
    }
}
