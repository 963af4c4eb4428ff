import SettingsUI

/// What the page says on its way out, after the terminal is back: changes that were not saved
/// (exit 1), and saved changes the scheduler had not caught up with because a program it ran was
/// still running (exit 1, `notif apply` finishes it).
struct QuitReport {
    let notSaved: [PreferenceChange]
    let saveProblem: String?
    /// Saved settings no finished apply has seen.
    let unscheduled: Bool
    /// Programs that were still running and were ended (`crontab`, `systemctl`, …).
    let stopped: [String]
    /// What happened to the settings file while the page ran (reset, and where the old file is).
    var settingsNotices: [String] = []
    /// Why settings.json could not be read when the page ended (exit 1: nothing could be changed).
    var settingsProblem: String?

    var exitCode: ExitCode { notSaved.isEmpty && !unscheduled && settingsProblem == nil ? .success : .failure }

    func print(to output: Output) {
        for notice in settingsNotices { output.warn(notice) }
        if let settingsProblem {
            output.error(settingsProblem + "; notif changed nothing (`notif edit` opens it)")
        }
        if !notSaved.isEmpty {
            output.error("not saved: \(notSaved.summary)" + (saveProblem.map { "; \($0.droppingPrefix("Not saved: "))" } ?? ""))
        }
        if unscheduled {
            let running = stopped.isEmpty ? "" : "\(stopped.joined(separator: " and ")) was still running and was stopped; "
            output.error("the scheduler may not match the saved settings yet: \(running)`notif apply` brings it in line")
        }
    }
}

extension String {
    func droppingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
