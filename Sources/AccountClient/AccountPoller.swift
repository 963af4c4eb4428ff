import LinuxGateway
import SharedLogic

/// Push for Account projects on Linux: `notif daemon` polls the server's history every
/// `interval` seconds and shows items it has not shown before, while notifications are
/// allowed and Push Notifications is on. The first poll only records what is already there,
/// so an old history never floods the desktop. Guest projects never poll. A hostile server
/// gets bounded work: at most `maximumPerPoll` items are shown per poll, a failing item is tried
/// `maximumAttempts` times in all, and items with ids that are not plain are skipped.
public final class AccountPoller {
    let account: AccountService
    let interval: Int64
    let log: (String) -> Void
    private var nextPoll: Instant?
    private var registrationChecked = false

    /// New items shown per poll at most; older new ones are marked seen and counted in one record.
    public static let maximumPerPoll = 5
    /// Attempts to show an item, in all, before it is given up on (marked shown, said once).
    public static let maximumAttempts = 3
    /// Shown ids kept that the server's answer no longer holds (the newest), beside every id of the
    /// answer: history-shown.json stays bounded however many fresh ids a server sends.
    public static let earlierShownKept = 1000

    /// What history-shown.json keeps, newest first: the ids of this answer that count as shown,
    /// then up to `earlierShownKept` earlier ones that are not in it.
    static func remembered(answer: [String], earlier: [String], shown: Set<String>) -> [String] {
        var seen = Set<String>()
        let current = answer.filter { shown.contains($0) && seen.insert($0).inserted }
        return current + earlier.filter { shown.contains($0) && seen.insert($0).inserted }.prefix(earlierShownKept)
    }

    public init(account: AccountService, interval: Int64, log: @escaping (String) -> Void) {
        self.account = account
        self.interval = max(10, interval)
        self.log = log
    }

    /// Called on every wake of the daemon; polls when due. Returns the next poll's time, or nil
    /// for a Guest project (or one not logged in), which never needs a wake for this: logging in
    /// changes settings.json, and that wakes the daemon. A poll that seems more than an interval
    /// away (the clock was set back) is made now.
    @discardableResult
    public func wake(now: Instant) -> Instant? {
        guard isLoggedIn() else {
            nextPoll = nil
            registrationChecked = false
            return nil
        }
        if let nextPoll, now < nextPoll, nextPoll.seconds - now.seconds <= interval { return nextPoll }
        let next = now.adding(seconds: interval)
        nextPoll = next
        poll(now: now)
        return next
    }

    private func isLoggedIn() -> Bool {
        (try? account.context.store.load().preferences.mode) == .account && account.store.authToken() != nil
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
        // Items whose id could carry control characters or markup into a log or a terminal
        // are never shown or recorded; only their number is said.
        let items = history.items
        if history.skipped > 0 {
            log("server history: \(history.skipped) items with invalid ids skipped")
        }
        let ids = Set(items.map(\.id))
        let store = account.store
        guard let earlier = store.shownIDs() else {
            try? store.saveShownIDs(Self.remembered(answer: items.map(\.id), earlier: [], shown: ids))
            log("server history: \(ids.count) earlier notification\(ids.count == 1 ? "" : "s") noted; new ones will be shown")
            return
        }
        let shown = Set(earlier)
        var seen = shown
        let fresh = items.filter { seen.insert($0.id).inserted }
        var attempts = store.failedAttempts().filter { ids.contains($0.key) && !shown.contains($0.key) }
        guard !fresh.isEmpty else {
            try? store.saveFailedAttempts(attempts)
            return
        }
        let allowed = preferences.permission == .granted && preferences[.pushNotifications]
        let reminders = account.reminders
        var done = shown.union(ids)
        // The history is newest first: the newest few are shown, the older ones only counted.
        let batch = fresh.prefix(Self.maximumPerPoll)
        for item in batch {
            let id = "server:\(item.id)"
            let record: DeliveryRecord
            if !allowed {
                attempts[item.id] = nil
                record = reminders.log(id, kind: .push, now: now, .skipped,
                                       preferences.permission == .granted ? "Push Notifications is off" : "notifications are not allowed")
            } else {
                switch reminders.show(summary: item.title, body: item.body) {
                case .success(let how):
                    attempts[item.id] = nil
                    record = reminders.log(id, kind: .push, now: now, .delivered, how)
                case .failure(let error):
                    let attempt = (attempts[item.id] ?? 0) + 1
                    if attempt >= Self.maximumAttempts {
                        attempts[item.id] = nil
                        record = reminders.log(id, kind: .push, now: now, .failed,
                                               "\(error.message); given up after \(attempt) attempts")
                    } else {
                        // Not marked as shown: the next poll tries again.
                        attempts[item.id] = attempt
                        done.remove(item.id)
                        record = reminders.log(id, kind: .push, now: now, .failed,
                                               "\(error.message); attempt \(attempt) of \(Self.maximumAttempts), will try again")
                    }
                }
            }
            log("\(record.time) \(record.reminder) \(record.outcome.rawValue): \(record.detail)")
        }
        if fresh.count > batch.count {
            let record = reminders.log("server", kind: .push, now: now, .skipped,
                                       "\(fresh.count - batch.count) older new notifications not shown (at most \(Self.maximumPerPoll) per poll)")
            log("\(record.time) \(record.reminder) \(record.outcome.rawValue): \(record.detail)")
        }
        try? store.saveFailedAttempts(attempts)
        try? account.store.saveShownIDs(Self.remembered(answer: items.map(\.id), earlier: earlier, shown: done))
    }
}
