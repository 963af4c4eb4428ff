import SharedLogic

/// Which full screen is showing, with the state that is its own.
public enum Screen: Equatable, Sendable {
    case page
    /// The key table, scrolled down by `scroll` lines.
    case help(scroll: Int)
    case history(HistoryView)
    /// A wizard page and its focused button.
    case onboarding(OnboardingStep, focus: Button)
}

/// The History screen's own state: what it lists, and the highlighted entry (Enter shows it whole).
public struct HistoryView: Equatable, Sendable {
    public var content: HistoryContent
    public var selection: Int

    public init(content: HistoryContent = .loading, selection: Int = 0) {
        self.content = content
        self.selection = selection
    }

    /// How many entries it lists.
    public var count: Int {
        switch content {
        case .records(let records): return records.count
        case .server(let items, _): return items.count
        case .loading, .failed: return 0
        }
    }
}

/// The onboarding wizard's pages.
public enum OnboardingStep: Equatable, Sendable {
    case welcome
    /// Guest: reminders ask when first turned on; offers to turn on Tips & Updates now.
    case guestReminders
    /// Account: the permission prompt is shown over this page.
    case accountPermission
}

/// Why the permission prompt is open (what Esc means and what follows a choice).
public enum PromptReason: Equatable, Sendable {
    /// A change would schedule the first reminder.
    case firstReminder
    /// `p` on the page.
    case requested
    case onboarding
    /// `t` while nobody has decided: the test is sent once notifications are allowed.
    case test
}

/// The buttons a dialog or wizard page can show.
public enum Button: Equatable, Hashable, Sendable {
    case allow, deny, next, turnOn, notNow, saveAgain, quitAnyway, reset, cancel
    public var title: String {
        switch self {
        case .reset: return "Reset to defaults"
        case .cancel: return "Cancel"
        case .allow: return NotificationPermission.granted.word
        case .deny: return NotificationPermission.denied.word
        case .saveAgain: return "Save again"
        case .quitAnyway: return "Quit anyway"
        case .next: return "Continue"
        case .turnOn: return "Turn on \(OnboardingOffer.reminder.title)"
        case .notNow: return "Not now"
        }
    }
}

/// A modal dialog over the current screen.
public enum Dialog: Equatable, Sendable {
    case permission(focus: Button, reason: PromptReason)
    /// The Sound list with the highlighted choice.
    case soundList(selected: NotificationSound)
    /// The scheduler chooser, opened from the `Scheduler:` line, with the highlighted choice.
    case schedulerList(selected: SchedulerPreference)
    /// Quitting while changes are not saved: `Save again` or `Quit anyway`.
    case quitUnsaved(focus: Button)
    /// One history entry in full (the index in the list shown).
    case historyEntry(Int)
    /// Resetting a settings.json that cannot be read: `Reset to defaults` or `Cancel`.
    case resetSettings(focus: Button)
}

/// A one-line message under the status area.
public struct Notice: Equatable, Sendable {
    /// `r` read settings.json again, and it has the same problem.
    public static let stillUnreadable = Notice("Read again: it still cannot be read.", warning: true)

    public var text: String
    public var isWarning: Bool
    /// Said by an apply about itself (`Moved the reminder …`): the next apply, or a change made
    /// here or elsewhere, takes it away.
    public var untilNextApply: Bool
    public init(_ text: String, warning: Bool = false, untilNextApply: Bool = false) {
        self.text = text
        self.isWarning = warning
        self.untilNextApply = untilNextApply
    }
}

/// The whole UI state: pure data, rendered by `render` and changed only by `update`.
public struct AppState: Equatable, Sendable {
    public var preferences: NotificationPreferences
    /// The toggles and reminders the page shows (`NotifCatalog.standard`; tests pass a longer one).
    public var catalog: NotifCatalog = .standard
    public var screen: Screen = .page
    public var dialog: Dialog?
    public var focus: PageRow = .toggle(.pushNotifications)
    public var status: SchedulerStatus
    /// A passing message (`Test notification accepted by …`), or a warning about the last action.
    public var notice: Notice?
    /// Why `TZ` names no time zone (the page's times are then UTC), for the status area.
    public var zoneProblem: String?
    /// What happened to the settings file while the page ran (reset to the defaults, and where
    /// the old file was kept): said again after quitting.
    public var settingsNotices: [String] = []
    /// Why settings.json cannot be read (the line, column and fix), while it cannot: the page
    /// shows this in place of the settings, with what can be done (edit, read again, reset).
    public var settingsProblem: String?
    /// The last scheduling failure, until the next success (`r` retries).
    public var error: String?
    /// Why the last save failed, while changes are unsaved (`r` saves them again).
    public var saveProblem: String?
    /// What the settings file held when last read or written (the page shows it with the
    /// changes not saved yet on top).
    public var savedPreferences: NotificationPreferences
    /// Changes whose save failed; the next save carries them again, so a change is never lost
    /// (quitting asks while there are any).
    public var unsaved: [PreferenceChange] = []
    /// Changes handed to the shell to save, oldest first, one entry per `.commit`.
    public var pendingSaves: [[PreferenceChange]] = []
    /// The scheduler work running or waiting (`.apply`, `.refreshStatus`).
    public var scheduling = SchedulingProgress()
    /// `r` was pressed and its result has not come back.
    public var retrying = false
    /// q was pressed while saves were on their way: the page quits (or asks) when they are done.
    public var closing = false
    /// `notif onboarding` finished: it leaves once the choices are saved and scheduled (the
    /// natural end waits for the scheduler; quitting early does not).
    public var leavingWhenScheduled = false
    /// How many times `Save again` failed in the question asked on quitting.
    public var failedSaveAgain = 0
    /// `t` was pressed while a save (the permission, say) was on its way: sent once it is done.
    public var testWaiting = false
    public var size: TerminalSize
    /// Draw Unicode arrows and box lines (false: ASCII only).
    public var unicode: Bool
    /// `notif onboarding`: leave when the wizard is done instead of showing the page.
    public var exitAfterOnboarding = false

    public init(preferences: NotificationPreferences, status: SchedulerStatus = SchedulerStatus(),
                size: TerminalSize = TerminalSize(width: 80, height: 24), unicode: Bool = true) {
        self.preferences = preferences
        self.savedPreferences = preferences
        self.status = status
        self.size = size
        self.unicode = unicode
    }

    /// The state notif starts in: onboarding first when it never completed (or `onboarding` is asked for).
    public static func start(preferences: NotificationPreferences, status: SchedulerStatus, size: TerminalSize,
                             unicode: Bool, onboarding: Bool, exitAfterOnboarding: Bool = false) -> AppState {
        var state = AppState(preferences: preferences, status: status, size: size, unicode: unicode)
        if onboarding { state.screen = .onboarding(.welcome, focus: .next) }
        state.exitAfterOnboarding = exitAfterOnboarding
        return state
    }

    /// The wizard page showing, if one is.
    public var onboardingStep: OnboardingStep? {
        if case .onboarding(let step, _) = screen { return step }
        return nil
    }

    /// The focused button of the wizard page showing (`.next` when none shows).
    public var wizardFocus: Button {
        get { if case .onboarding(_, let focus) = screen { return focus } else { return .next } }
        set { if case .onboarding(let step, _) = screen { screen = .onboarding(step, focus: newValue) } }
    }

    /// The History screen's state while it shows.
    public var historyView: HistoryView? {
        if case .history(let view) = screen { return view }
        return nil
    }

    /// How many entries the History screen lists (none while it does not show).
    public var historyCount: Int { historyView?.count ?? 0 }
}
