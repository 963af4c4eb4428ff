import CommandLineInterface
import LinuxGateway
import Storage

/// `notif reset --entries`: removes every entry notif wrote for this user, on every scheduler,
/// and says what it removed. Run it before removing notif, so nothing is left to fail daily.
extension Commands {
    /// `notif reset --entries` (the declaration requires `--entries`).
    func reset() -> ExitCode {
        let removals: [EntryRemoval]
        do {
            removals = try service.removeAllEntries()
        } catch {
            output.error("nothing was removed: \(error)")
            return .failure
        }
        var removedAny = false
        for removal in removals {
            if !removal.removed.isEmpty {
                removedAny = true
                output.line("Removed from \(Self.describe(removal.place)): \(removal.removed.joined(separator: ", ")).")
            }
            if let note = removal.note { output.line("\(Wording.capitalizedFirst(Self.describe(removal.place))): \(note).") }
        }
        let problems = removals.flatMap { removal in removal.problems.map { "\(Self.describe(removal.place)): \($0)" } }
        if !removedAny && problems.isEmpty {
            output.line("No entries of notif's were found (crontab, systemd user units, built-in schedule, autostart).")
        }
        if context.probe().embeddedDaemonRunning {
            output.line("notif daemon is still running, with nothing left to show; stop it, or log out.")
        }
        for problem in problems { output.error("could not remove from \(problem)") }
        guard problems.isEmpty else {
            output.error("some entries are still there; `notif reset --entries` tries again")
            return .failure
        }
        output.line("Your settings are kept; `notif apply` schedules the reminders again.")
        return .success
    }

    static func describe(_ place: String) -> String {
        switch place {
        case "cron": return "your crontab"
        case "systemd": return "systemd user timers (units, enable links, stamps)"
        case "embedded": return "the built-in schedule"
        case "autostart": return "the autostart entry"
        default: return place
        }
    }
}
