import SharedLogic
import Storage

/// `notif apply`: the saved settings reconciled with the scheduler, under the apply lock.
extension ReminderService {
    static let applyLock = "apply.lock"

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
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, notice: nil)
        }
        // On the list before any entry is written, so a reset run with other variables finds them;
        // the list stays locked until they are, so a reset running now cannot drop the record.
        // (Not when no entry can be written: no program, or one or places that fail the trust rule.)
        let writable = (try? program()) != nil
        let listing = !writable || LocalReminders.plan(loaded.preferences, reminders: reminders).isEmpty ? nil : listConfiguration()
        defer { listing?.held?.release() }
        let unlisted = listing?.warning
        let report = LocalReminders.apply(loaded.preferences, gateway: gateway, reminders: reminders, entry: makeEntry)
        recordNewEntries(report)
        // Only once the chosen scheduler holds the plan are the others emptied: if it failed,
        // the old entries keep the reminder coming (a stale one delivers nothing anyway).
        guard report.succeeded else {
            let removed = refusedProgram() == nil ? nil : removeEntriesRunningRefusedProgram(gateway)
            let notice = [unlisted, removed].compactMap { $0 }
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report,
                                notice: notice.isEmpty ? nil : notice.joined(separator: "; "))
        }
        let moves = moveOff(except: kind, recorded: placed?.holder, preferences: loaded.preferences)
        guard moves.allSatisfy(\.report.succeeded) else {
            return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, moves: moves, notice: unlisted)
        }
        let record = SchedulerPlacement.recording(kind, saved: loaded.preferences.scheduler, override: choice.forced ? context.forcedSchedulerWords : nil,
                                                  choosing: choosing, previous: placed)
        _ = try? context.state.write(schedulerRecord, record.text)
        let change = SchedulerChange.made(onto: kind, report: report, moves: moves, planned: Set(LocalReminders.plan(loaded.preferences).map(\.id)),
                                          recorded: placed?.holder, why: choice.why)
        return ApplyOutcome(preferences: loaded.preferences, choice: choice, report: report, moves: moves, change: change, notice: unlisted)
    }

    /// notif's own program when it is there but its place fails the trust rule, else nil (a
    /// refusal for another reason, such as a zone file others can change, is not the program's).
    func refusedProgram() -> String? {
        guard let path = context.executable, context.isExecutable(path), context.trust(path) != nil else { return nil }
        return path
    }

    /// When the program fails the trust rule, entries that still run it (written before its place
    /// became one others can change) are removed: whatever sits at that path would run as the
    /// user. Entries of another notif's program stay. Says what it removed, or could not.
    func removeEntriesRunningRefusedProgram(_ gateway: any LocalNotificationGateway) -> String? {
        guard let path = refusedProgram(), let found = try? gateway.installed() else { return nil }
        var removed: [String] = [], failed: [String] = []
        for (id, text) in found.sorted(by: { $0.key < $1.key })
        where gateway.entry(id, installed: text, userZone: context.zone).program == path {
            do {
                try gateway.cancel(id)
                removed.append(id)
            } catch {
                failed.append("\(id): \(error.message)")
            }
        }
        var words: [String] = []
        if !removed.isEmpty { words.append("removed the \(gateway.name) entry of \(removed.joined(separator: ", ")): it ran \(path), which others can now change") }
        if !failed.isEmpty { words.append("could not remove the entry that runs \(path): \(failed.joined(separator: "; "))") }
        return words.isEmpty ? nil : words.joined(separator: "; ")
    }

    /// Records when each entry this apply wrote for a reminder that had none there began
    /// (`EntrySince`, read by `deliver`): a reminder turned on after today's time shows nothing
    /// before the next one, whichever scheduler holds it and whatever wakes notif.
    func recordNewEntries(_ report: ApplyReport) {
        let now = context.clock.now()
        for outcome in report.outcomes where outcome.newEntry {
            try? context.state.recordEntrySince(entrySinceKey(outcome.id), EntrySince(instant: now, zone: context.zone))
        }
    }
}
