import AccountClient
import LinuxGateway
import SettingsUI
import SharedLogic
import Storage

/// Carries out the page's effects against the real files and scheduler, and turns each
/// outcome into the action the reducer expects. Runs on the page's worker threads.
struct PageEffects: Sendable {
    let service: ReminderService
    let account: AccountService
    var context: NotifContext { service.context }

    /// The action `effect` answers with (nil for those that answer nothing).
    func perform(_ effect: Effect) -> Action? {
        switch effect {
        case .commit(let changes): return commit(changes)
        case .apply(let choosing): return apply(choosing: choosing)
        case .refreshStatus: return .statusRefreshed(refreshedStatus())
        case .checkSchedulers: return .schedulersChecked(options())
        case .reloadPreferences: return reload()
        case .resetSettings: return reset()
        case .registerDevice:
            account.ensureRegistered()
            return nil
        case .sendTest: return sendTest()
        case .loadHistory: return loadHistory()
        case .suspend, .quit, .editSettings: return nil
        }
    }

    /// Saves the changes (a locked read-modify-write); the scheduler is applied separately.
    func commit(_ changes: [PreferenceChange]) -> Action {
        do {
            let result = try context.store.update { preferences in
                for change in changes { preferences = change.applied(to: preferences) }
            }
            return .saved(result.after)
        } catch {
            return .commitFailed(changes: changes, preferences: try? context.store.load().preferences, message: error.description)
        }
    }

    /// The settings as they are once a write to them is finished: a file that does not parse is
    /// read again after a quiet moment before it is believed (`loadSettled`). A file removed
    /// brings the defaults, and says so.
    func reload() -> Action? {
        do {
            let loaded = try context.store.loadSettled()
            // Removed (and not put back within a moment): the defaults are what every run now reads.
            return .preferencesReloaded(loaded.preferences, notice: loaded.fileExisted ? nil
                : "settings.json was removed: the defaults are in force; a change saves them to a new settings.json")
        } catch {
            return .settingsUnreadable(error.description)
        }
    }

    /// The defaults in place of settings.json that cannot be read, the old file kept as a copy.
    func reset() -> Action {
        do {
            let copy = try context.store.resetInvalidFile()
            let preferences = try context.store.load().preferences
            return .preferencesReloaded(preferences, notice: copy.map { "settings.json was reset to the defaults; the old file is kept as \($0)" }
                                        ?? "settings.json reads again: nothing was reset")
        } catch {
            return .settingsUnreadable(error.description)
        }
    }

    func apply(choosing: Bool = false) -> Action {
        do {
            let outcome = try service.apply(choosing: choosing)
            // What apply did is read back as `status` reads it: one status value, whatever changed it.
            var status = refreshedStatus()
            status.moved = Presenter.changeLine(outcome)
            return .applied(status: status, problem: problem(in: outcome))
        } catch {
            return .applied(status: SchedulerStatus(facts: SchedulerFacts(scheduler: nil, entries: nil), nextFire: service.nextFire(),
                                                    zone: context.zone),
                            problem: "Not scheduled: \(error.description)")
        }
    }

    func sendTest() -> Action {
        let record = service.test()
        return record.outcome == .delivered
            ? .testFinished(succeeded: true, message: "Test notification \(record.detail).")
            : .testFinished(succeeded: false, message: "Test notification not sent: \(record.detail)")
    }

    func loadHistory() -> Action {
        if (try? context.store.load().preferences.mode) == .account {
            do {
                let history = try account.history()
                let note = history.cachedAt.map { "Cached copy from \($0): \(history.problem?.message ?? "the server could not be reached")" }
                return .historyLoaded(.server(history.items, note: note))
            } catch {
                return .historyLoaded(.failed(error.message))
            }
        }
        do {
            return .historyLoaded(.records(try service.history(500)))
        } catch {
            return .historyLoaded(.failed(error.description))
        }
    }

    /// The scheduler as `status` sees it now (one read of the scheduler).
    func refreshedStatus() -> SchedulerStatus {
        let report = service.status()
        return SchedulerStatus(facts: report.reminders.facts, unreadable: report.reminders.unreadable,
                               warnings: report.warnings, nextFire: service.nextFire(), zone: context.zone,
                               options: options(report.schedulers), overriddenBy: report.choice.forced ? context.forcedSchedulerSource : nil)
    }

    /// The chooser's lines: what auto would use now, then each scheduler's usability here.
    func options(_ schedulers: [SchedulerUsability]? = nil) -> [SchedulerUsability] {
        let probe = context.probe()
        let auto = service.autoChoice(probe: probe)
        let reason = "auto keeps the reminder on its scheduler while that one can hold it, and picks one otherwise. "
            + Wording.capitalizedFirst(auto.why)
        return [SchedulerUsability(choice: .auto, state: .ready, reason: reason)] + (schedulers ?? SchedulerUsability.all(probe: probe))
    }

    /// What the page's error line shows after an apply: what did not get scheduled or removed,
    /// then what the apply warned of (the configuration list not written).
    func problem(in outcome: ApplyOutcome) -> String? {
        let problems = [schedulingProblem(in: outcome), outcome.notice].compactMap { $0 }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Failures worth the error line (a missing scheduler already shows as a warning): an entry
    /// that should be gone but may still fire comes first, with how to stop it.
    private func schedulingProblem(in outcome: ApplyOutcome) -> String? {
        guard outcome.choice.kind != nil else { return nil }
        let stillFiring = Presenter(service: service).stillFiring(outcome)
        if !stillFiring.isEmpty { return stillFiring.map { "\($0.title) may still fire: \($0.detail)" }.joined(separator: "; ") }
        let messages = outcome.report.failures.compactMap { item -> String? in
            if case .failed(let message) = item.result { return message }
            return nil
        }
        return messages.isEmpty ? nil : "Not scheduled: " + messages.joined(separator: "; ")
    }
}
