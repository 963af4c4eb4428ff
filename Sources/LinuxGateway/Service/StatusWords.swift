import SharedLogic

/// The command line's words (`status`, `status --json`) for the typed status.
public enum StatusWords {
    /// After `Next reminder: none — `.
    public static func noReminder(_ reason: NoReminderReason) -> String {
        switch reason {
        case .blocked(let block, let id):
            let title = LocalReminders.reminder(id: id)?.title ?? id
            let words = block.message(title: title)
            return block == .preferenceOff || block == .masterSwitchOff ? "off (\(words))" : words
        case .noScheduler: return "no scheduler available"
        case .unreadable: return "not scheduled as far as notif can tell: the scheduler's entries could not be read"
        case .notInstalled: return "not scheduled: `notif apply` installs it, or says what stops it"
        case .cannotWrite: return "not scheduled: notif cannot write its entry; the warnings say why"
        case .cannotFire(let why): return "cannot fire: " + cannotFire(why)
        case .neverShows: return "the entries do not run at the reminder's time (written for another zone, or edited); their next run rewrites them, or `notif apply` now"
        case .settingsUnreadable:
            return "settings.json cannot be read, and no reminder shows until it can; the entries are kept as they are"
        case .nothingDefined: return "nothing planned"
        }
    }

    /// Why an installed entry cannot fire, and how to fix it.
    public static func cannotFire(_ why: CannotFire) -> String {
        switch why {
        case .programMissing(let path):
            return "its program \(TerminalText.quoted(path)) is gone or not executable; run `notif apply` from the installed notif so the entry names a program that exists"
        case .noSystemd:
            return "no systemd user manager runs and this machine was not started with systemd; `notif set scheduler auto` picks a scheduler that runs here"
        case .daemonNotRunning:
            return "built-in entries fire only while `notif daemon` runs, and it is not running; start `notif daemon` (`notif daemon --install-autostart` starts it at each login)"
        case .shellByHand(let line):
            return "cron runs its entries with \(line), a line of yours inside notif's block, which may not run them at all; `notif apply` moves the line below the block"
        }
    }

    /// A stable word for `status --json` (`programMissing`, `noSystemd`, `daemonNotRunning`, `shellByHand`).
    public static func code(_ why: CannotFire) -> String {
        switch why {
        case .programMissing: return "programMissing"
        case .noSystemd: return "noSystemd"
        case .daemonNotRunning: return "daemonNotRunning"
        case .shellByHand: return "shellByHand"
        }
    }

    /// One way the entries differ from the plan.
    public static func problem(_ problem: SyncProblem) -> String {
        switch problem {
        case .notInstalled(let id): return "\(id) is planned but not installed"
        case .differs(let id): return "\(id) is installed, but not as notif writes it now: another command or zone, or an edit by hand"
        case .notEnabled(let id): return "\(id) is installed but its timer is not enabled"
        case .notPlanned(let id): return "\(id) is installed but not planned"
        case .noScheduler(let id): return "\(id) is planned but no scheduler can hold it"
        case .unreadable(let kind): return "the \(kind.rawValue) entries could not be read"
        case .elsewhere(let id, let from, let to): return "\(id) is on \(from.rawValue); `notif apply` moves it to \(to.rawValue)"
        }
    }
}
