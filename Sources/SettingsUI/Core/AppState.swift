import SharedLogic

/// Which full screen is showing.
public enum Screen: Equatable, Sendable {
    case page
    case help
    case history
    case onboarding(OnboardingStep)
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
}

/// The buttons a dialog or wizard page can show.
public enum Button: Equatable, Hashable, Sendable {
    case allow, deny, next, turnOn, notNow
    public var title: String {
        switch self {
        case .allow: return "Allow"
        case .deny: return "Don't allow"
        case .next: return "Continue"
        case .turnOn: return "Turn on Tips & Updates"
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
}

/// A one-line message under the status area.
public struct Notice: Equatable, Sendable {
    public var text: String
    public var isWarning: Bool
    public init(_ text: String, warning: Bool = false) {
        self.text = text
        self.isWarning = warning
    }
}

/// The whole UI state: pure data, rendered by `render` and changed only by `update`.
public struct AppState: Equatable, Sendable {
    public var preferences: NotificationPreferences
    public var screen: Screen = .page
    public var dialog: Dialog?
    public var focus: PageRow = .pushNotifications
    /// The focused button on a wizard page.
    public var wizardFocus: Button = .next
    public var status: SchedulerStatus
    /// A passing message (`Test notification shown`), or a warning about the last action.
    public var notice: Notice?
    /// The last failure, until the next success (`r` retries).
    public var error: String?
    /// Changes the person made that are not saved yet (a save failed); every save carries them
    /// again until one succeeds, so a change is never lost.
    public var unsaved: [PreferenceChange] = []
    /// `r` was pressed and its result has not come back.
    public var retrying = false
    public var history: HistoryContent = .loading
    public var historyScroll = 0
    public var helpScroll = 0
    public var size: TerminalSize
    /// Draw Unicode arrows and box lines (false: ASCII only).
    public var unicode: Bool
    /// `notif onboarding`: leave when the wizard is done instead of showing the page.
    public var exitAfterOnboarding = false

    public init(preferences: NotificationPreferences, status: SchedulerStatus = SchedulerStatus(),
                size: TerminalSize = TerminalSize(width: 80, height: 24), unicode: Bool = true) {
        self.preferences = preferences
        self.status = status
        self.size = size
        self.unicode = unicode
    }

    /// The state notif starts in: onboarding first when it never completed (or `onboarding` is asked for).
    public static func start(preferences: NotificationPreferences, status: SchedulerStatus, size: TerminalSize,
                             unicode: Bool, onboarding: Bool, exitAfterOnboarding: Bool = false) -> AppState {
        var state = AppState(preferences: preferences, status: status, size: size, unicode: unicode)
        if onboarding {
            state.screen = .onboarding(.welcome)
            state.wizardFocus = .next
        }
        state.exitAfterOnboarding = exitAfterOnboarding
        return state
    }
}
