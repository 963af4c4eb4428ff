import SharedLogic
import Storage

/// What `notif reset --entries` did in one place notif writes entries to.
public struct EntryRemoval: Sendable {
    /// `cron`, `systemd`, `embedded` or `autostart`.
    public var place: String
    /// The reminder ids (or, for autostart, the file) removed there.
    public var removed: [String]
    /// Why something there could not be removed (then the command fails).
    public var problems: [String]
    /// Worth saying, not a failure: the scheduler's program is gone, a file there is not notif's.
    public var note: String?

    public init(place: String, removed: [String] = [], problems: [String] = [], note: String? = nil) {
        self.place = place
        self.removed = removed
        self.problems = problems
        self.note = note
    }
}

extension ReminderService {
    /// Removes every entry notif wrote for this user on every scheduler: its crontab block,
    /// its systemd timers and services with their enable links and stamps, the built-in
    /// schedule, and the autostart entry of `notif daemon`; then forgets which scheduler held
    /// them. The settings are kept: `notif apply` schedules again. Under the apply lock, so no
    /// apply runs half way through it.
    public func removeAllEntries() throws(PreferencesError) -> [EntryRemoval] {
        try underApplyLock { _ in
            let crontabProblem = context.probe().crontabProblem
            var removals = SchedulerKind.allCases.compactMap { kind -> EntryRemoval? in
                // A user who may not use crontab (cron.allow, cron.deny, no program) has no crontab.
                if kind == .cron, let crontabProblem {
                    return EntryRemoval(place: kind.rawValue, note: "\(crontabProblem): nothing of notif's can be in your crontab")
                }
                return gateway(for: kind).map { removeAll(from: $0, kind) }
            }
            removals.append(removeAutostart())
            if removals.allSatisfy(\.problems.isEmpty) {
                _ = try? context.state.remove(StateFiles.schedulerFile)
            }
            return removals
        }
    }

    private func removeAll(from gateway: any LocalNotificationGateway, _ kind: SchedulerKind) -> EntryRemoval {
        var removal = EntryRemoval(place: kind.rawValue)
        let found: [String]
        do {
            found = try gateway.installed().keys.sorted()
        } catch where error.schedulerMissing {
            removal.note = "\(error.message): nothing of notif's can run there"
            return removal
        } catch {
            removal.problems.append(error.message)
            return removal
        }
        // Known ids too: a systemd enable link or stamp can outlive the unit files.
        let ids = found + reminders.map(\.id).filter { !found.contains($0) }
        for id in ids {
            do {
                try gateway.cancel(id)
                if found.contains(id) { removal.removed.append(id) }
            } catch {
                removal.problems.append("\(id): \(error.message)")
            }
        }
        return removal
    }

    private func removeAutostart() -> EntryRemoval {
        var removal = EntryRemoval(place: "autostart")
        let path = Autostart.path(in: context.paths)
        do {
            switch try Autostart.removeIfNotifs(paths: context.paths) {
            case .removed: removal.removed.append(path)
            case .absent: break
            case .notNotifs: removal.note = "\(path) was not written by notif: left alone"
            }
        } catch {
            removal.problems.append(error.description)
        }
        return removal
    }
}
