import SharedLogic

/// The text after `Next reminder:`: the local day and time, or `none — <why>`, from the one
/// `ReminderStatus` (the page's words: its hints name keys, not commands).
public enum NextReminderText {
    /// What the line shows, typed: a time, or no time (drawn dim) with the words why.
    public enum Line: Equatable, Sendable {
        case time(String)
        case none(String)
        case checking(String)

        public var text: String {
            switch self {
            case .time(let text), .none(let text), .checking(let text): return text
            }
        }

        /// No reminder is coming: drawn dim (a time, or the wait for one, is drawn as `on`).
        public var isDim: Bool {
            if case .none = self { return true }
            return false
        }
    }

    public static func describe(_ preferences: NotificationPreferences, _ status: SchedulerStatus, unicode: Bool = true,
                                catalog: NotifCatalog = .standard) -> String {
        line(preferences, status, unicode: unicode, catalog: catalog).text
    }

    public static func line(_ preferences: NotificationPreferences, _ status: SchedulerStatus, unicode: Bool = true,
                            catalog: NotifCatalog = .standard) -> Line {
        let reminders = status.reminders(for: preferences, catalog: catalog)
        let line = next(reminders.next, status, unicode: unicode, catalog: catalog)
        // Today's, owed: the command that sends it, before the next run (tomorrow's) or why
        // none comes; drawn as a time is, since one is still to come today.
        guard let owed = reminders.owedWords, status.checked else { return line }
        return .time(owed + line.text)
    }

    static func next(_ next: NextReminder, _ status: SchedulerStatus, unicode: Bool, catalog: NotifCatalog) -> Line {
        switch next {
        case .at(let time, _, let wanted):
            // A scheduler not running yet (cron stopped, no login yet): what the time waits for.
            let once = status.options.first { $0.choice.rawValue == status.scheduler?.rawValue }?.once.map { ", " + $0 } ?? ""
            let shown = status.zone.localDateTime(of: time).shortDisplay
            // The entries fire at another time than the wanted one: both, and what brings them together.
            guard let wanted else { return .time(shown + once) }
            return .time(shown + ", not \(status.zone.localDateTime(of: wanted).shortDisplay) (r schedules it then)" + once)
        case .waiting(_, let since):
            return .time(DeliveryLateness.waitingNext(since: since, zone: status.zone))
        case .none(let why):
            if case .blocked = why {} else if !status.checked {
                return .checking(unicode ? "checking…" : "checking...")
            }
            return .none("none \(unicode ? "—" : "-") " + text(for: why, catalog: catalog))
        }
    }

    static func text(for reason: NoReminderReason, catalog: NotifCatalog = .standard) -> String {
        switch reason {
        case .blocked(let block, let id):
            switch block {
            case .accountProject: return "Account project (reminders are a Guest feature)"
            case .masterSwitchOff: return "off (Push Notifications is off)"
            case .preferenceOff: return "off (\(catalog.reminders.first { $0.id == id }?.title ?? id) is off)"
            case .permissionDenied: return "blocked: permission is \(NotificationPermission.denied.word) (p changes it)"
            case .permissionNotDetermined: return "permission is \(NotificationPermission.notDetermined.word) (press p)"
            }
        case .noScheduler: return "no scheduler available"
        case .unreadable: return "unknown: the scheduler's entries could not be read"
        case .notInstalled: return "not scheduled yet"
        case .cannotWrite: return "not scheduled: notif cannot write its entry"
        case .cannotFire(let why): return "cannot fire: " + cannotFire(why)
        case .neverShows: return "entries miss the reminder's time; r rewrites them"
        case .settingsUnreadable: return "settings.json cannot be read"
        case .nothingDefined: return "nothing planned"
        }
    }

    /// Why an entry cannot fire, with what to do on the page or in a shell.
    static func cannotFire(_ why: CannotFire) -> String {
        switch why {
        case .programMissing(let path):
            return "its program \(TerminalText.quoted(path)) is gone; open the installed notif"
        case .noSystemd: return "no systemd here (s chooses another scheduler)"
        case .daemonNotRunning: return "notif daemon is not running (start `notif daemon`, or s chooses another scheduler)"
        case .shellByHand(let line): return "cron runs it with \(line), put in notif's block by hand; r moves the line out"
        }
    }
}
