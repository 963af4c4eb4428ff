import CommandLineInterface
import LinuxGateway
import SharedLogic
import Storage

/// `notif reset --entries`: removes every entry notif wrote for this user, of every
/// configuration it can find, on every scheduler, and says what it removed, where it looked and
/// what it could not remove. Run it before removing notif, so nothing is left to fail daily.
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
        // Each line one line: a path holding a newline (an XDG_CONFIG_HOME, say) shows it as `\u{A}`.
        func oneLine(_ text: String) -> String { TerminalText.safe(text, limit: .max) }
        let entries = removals.filter { $0.place != EntryRemoval.configurationList }
        let listProblems = removals.filter { $0.place == EntryRemoval.configurationList }.flatMap(\.problems).map(oneLine)
        let problems = entries.flatMap { removal in removal.problems.map { "\(Self.describe(removal.place)): \(oneLine($0))" } }
        if removals.allSatisfy(\.removed.isEmpty) && problems.isEmpty && listProblems.isEmpty {
            output.line("No entries of notif's were found.")
        }
        for removal in removals where !removal.removed.isEmpty {
            output.line("Removed from \(Self.describe(removal.place)): \(removal.removed.map(oneLine).joined(separator: "; ")).")
        }
        for removal in removals {
            for note in removal.notes { output.line("\(Wording.capitalizedFirst(Self.describe(removal.place))): \(oneLine(note)).") }
        }
        output.line("Looked in: " + removals.flatMap(\.lookedIn).map(oneLine).joined(separator: ", ") + ".")
        for problem in problems { output.error("could not remove from \(problem)") }
        for problem in listProblems { output.error(problem) }
        guard problems.isEmpty else {
            var commands: [String] = []
            for settings in removals.flatMap(\.retryWith) {
                let command = "`" + (settings.isEmpty ? "" : "env " + settings.map(Self.quotedAssignment).joined(separator: " ") + " ") + "notif reset --entries`"
                if !commands.contains(command) { commands.append(command) }
            }
            if commands.isEmpty { commands = ["`notif reset --entries`"] }
            output.error("some entries are still there and may still fire; \(commands.joined(separator: " and ")) \(commands.count > 1 ? "try" : "tries") again")
            return .failure
        }
        // Where this configuration may have no entry at all (its places fail the trust rule), the
        // settings are kept and apply says why it schedules nothing.
        if service.untrustedRun() == nil {
            output.line("Your settings are kept; `notif apply` schedules the reminders again.")
        } else {
            output.line("Your settings are kept.")
        }
        return listProblems.isEmpty ? .success : .failure
    }

    /// `NAME='VALUE'` as a shell word.
    static func quotedAssignment(_ setting: String) -> String {
        guard let equals = setting.firstIndex(of: "=") else { return CronCommand.shellQuote(setting) }
        return String(setting[...equals]) + CronCommand.shellQuote(String(setting[setting.index(after: equals)...]))
    }

    static func describe(_ place: String) -> String {
        switch place {
        case "cron": return "your crontab"
        case "systemd": return "systemd user timers (units, enable links, stamps)"
        case "embedded": return "the built-in schedule"
        case "autostart": return "the autostart entries of notif daemon"
        case EntryRemoval.configurationList: return "the list of configurations notif wrote entries for"
        default: return place
        }
    }
}
