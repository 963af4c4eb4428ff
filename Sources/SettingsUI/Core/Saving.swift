import SharedLogic

/// The scheduler work the page has asked the shell for: at most one runs at a time and at most
/// one more waits, so however many changes come while `crontab` or `systemctl` hangs, the
/// scheduler is reconciled once more afterwards, with the settings saved last.
public struct SchedulingProgress: Equatable, Sendable {
    /// One piece of work on the scheduler.
    public enum Work: Equatable, Sendable {
        case apply(choosing: Bool)
        case refresh

        /// The two as one: an apply reads the scheduler too, so it covers a refresh.
        func merged(with other: Work?) -> Work {
            switch (self, other) {
            case (.apply(let a), .apply(let b)?): return .apply(choosing: a || b)
            case (.apply, _): return self
            case (.refresh, let other?): return other
            case (.refresh, nil): return self
            }
        }

        var effect: Effect {
            switch self {
            case .apply(let choosing): return .apply(choosing: choosing)
            case .refresh: return .refreshStatus
            }
        }
    }

    public var running: Work?
    public var waiting: Work?
    /// Settings that change what is scheduled were saved, and no finished apply has seen them yet
    /// (the scheduler may not match them).
    public var stale = false

    public init() {}

    /// Asks for `work`: it starts now (returned) or waits for the one running.
    mutating func request(_ work: Work) -> Effect? {
        guard running != nil else {
            running = work
            return work.effect
        }
        waiting = work.merged(with: waiting)
        return nil
    }

    /// The running work finished: what starts next, if anything waits.
    mutating func finished() -> Effect? {
        if case .apply? = running, waiting.map({ if case .apply = $0 { return false } else { return true } }) ?? true {
            stale = false
        }
        running = nil
        guard let next = waiting else { return nil }
        waiting = nil
        running = next
        return next.effect
    }
}

extension AppState {
    /// Changes the person made that are not known to be saved: failed ones, then those on their way.
    public var notYetSaved: [PreferenceChange] { (unsaved + pendingSaves.flatMap { $0 }).lastOfEach }

    /// Shows the saved settings with every change not saved yet on top, in the order made.
    mutating func showSavedWithChanges() {
        preferences = (unsaved + pendingSaves.flatMap { $0 }).reduce(savedPreferences) { $1.applied(to: $0) }
    }

    /// Hands `changes` to the shell to save, with the unsaved ones before them (those a change on
    /// its way already covers stay out: the later change wins).
    mutating func save(_ changes: [PreferenceChange], effects: inout [Effect]) {
        let onTheirWay = pendingSaves.flatMap { $0 }
        let carried = unsaved.filter { old in !onTheirWay.contains { $0.setsSameValue(as: old) } }
        let batch = (carried + changes).lastOfEach
        unsaved = []
        pendingSaves.append(batch)
        // One save for everything one key did.
        if case .commit(let previous)? = effects.last {
            effects.removeLast()
            pendingSaves.removeLast(2)
            let joined = (previous + batch).lastOfEach
            pendingSaves.append(joined)
            effects.append(.commit(joined))
        } else {
            effects.append(.commit(batch))
        }
    }

    mutating func requestScheduling(_ work: SchedulingProgress.Work, effects: inout [Effect]) {
        if let effect = scheduling.request(work) { effects.append(effect) }
    }

    /// The oldest save finished.
    mutating func handleSaved(_ preferences: NotificationPreferences, effects: inout [Effect]) {
        let batch = pendingSaves.isEmpty ? [] : pendingSaves.removeFirst()
        let choosing = batch.contains { if case .scheduler = $0 { return true } else { return false } }
        // Only what changes the plan (or the scheduler) leaves the scheduler behind the settings.
        if choosing || LocalReminders.plan(savedPreferences).map(\.id) != LocalReminders.plan(preferences).map(\.id) {
            scheduling.stale = true
        }
        savedPreferences = preferences
        // Anything an earlier failure left is covered by this later change of the same setting.
        unsaved.removeAll { old in batch.contains { $0.setsSameValue(as: old) } }
        if unsaved.isEmpty { saveProblem = nil }
        showSavedWithChanges()
        requestScheduling(.apply(choosing: choosing), effects: &effects)
        if retrying && unsaved.isEmpty && pendingSaves.isEmpty { notice = Notice("Saved. Scheduling…") }
        savesSettled(effects: &effects)
    }

    /// The oldest save failed: its changes wait to be saved again, unless a later change on its
    /// way covers them.
    mutating func handleSaveFailed(_ changes: [PreferenceChange], preferences: NotificationPreferences?, message: String,
                                   effects: inout [Effect]) {
        if !pendingSaves.isEmpty { pendingSaves.removeFirst() }
        let later = pendingSaves.flatMap { $0 }
        unsaved = (unsaved + changes.filter { change in !later.contains { $0.setsSameValue(as: change) } }).lastOfEach
        if let preferences { savedPreferences = preferences }
        showSavedWithChanges()
        saveProblem = "Not saved: \(message)"
        if closing { failedSaveAgain += 1 }
        retrying = false
        notice = nil
        savesSettled(effects: &effects)
    }

    /// Runs what waited for the saves to finish: a test, or quitting.
    mutating func savesSettled(effects: inout [Effect]) {
        guard pendingSaves.isEmpty else { return }
        if testWaiting {
            testWaiting = false
            sendTest(effects: &effects)
        }
        if closing {
            closing = false
            requestQuit(effects: &effects)
        }
    }

    /// q, Esc or closing the last screen: quits once every change is saved; asks when one could not be.
    mutating func requestQuit(effects: inout [Effect]) {
        if !pendingSaves.isEmpty {
            closing = true
            notice = Notice("Saving your changes before quitting… (Ctrl-C quits now)")
            return
        }
        if !unsaved.isEmpty {
            dialog = .quitUnsaved(focus: .saveAgain)
            return
        }
        if leavingWhenScheduled && (scheduling.stale || scheduling.running != nil) {
            closing = true
            return
        }
        effects.append(.quit)
    }

    /// The scheduler caught up: a page leaving once scheduled leaves now.
    mutating func schedulingSettled(effects: inout [Effect]) {
        guard closing, leavingWhenScheduled, pendingSaves.isEmpty, scheduling.running == nil else { return }
        closing = false
        requestQuit(effects: &effects)
    }
}
