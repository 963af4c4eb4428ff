import SharedLogic

/// A key press as the page sees it, independent of ncurses codes.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right
    case enter, tab, backTab, escape, backspace
    case home, end, pageUp, pageDown
    /// Ctrl plus a letter (`ctrl("c")`).
    case ctrl(Character)
    /// Alt (Meta) plus a character: Escape and the character within the escape delay. Never Escape.
    case alt(Character)
    case function(Int)
    case unknown(Int)
}

/// Everything that can happen to the UI: input, and the outcomes of effects run by the shell.
public enum Action: Equatable, Sendable {
    /// The page is on screen: the first look at the scheduler, and Account projects' registration.
    case opened
    case key(Key)
    /// A mouse click at a screen cell (0-based).
    case click(row: Int, column: Int)
    case resize(TerminalSize)
    /// The oldest `.commit` still waiting was saved; `preferences` is what is on disk now.
    case saved(NotificationPreferences)
    /// The oldest `.commit` still waiting could not be saved: nothing changed on disk;
    /// `preferences` is what is saved (nil: it cannot be read, the page keeps what it had). The
    /// page keeps showing the changes as wanted, and `r` (or quitting, which asks) tries to save
    /// them again.
    case commitFailed(changes: [PreferenceChange], preferences: NotificationPreferences?, message: String)
    /// An `.apply` finished: the scheduler's state afterwards, and the line to show when it
    /// failed (`Not scheduled: …`, or that a reminder may still fire). The saved change is kept.
    case applied(status: SchedulerStatus, problem: String?)
    /// A `.refreshStatus` finished (nil: the scheduler could not be read; the status stays).
    case statusRefreshed(SchedulerStatus?)
    /// A `.checkSchedulers` finished: what each choice in the chooser means now.
    case schedulersChecked([SchedulerUsability])
    case testFinished(succeeded: Bool, message: String)
    case historyLoaded(HistoryContent)
    /// What the settings file holds now (after `.reloadPreferences` or `.resetSettings`), and
    /// what the person must be told (where a reset kept the old file).
    case preferencesReloaded(NotificationPreferences, notice: String? = nil)
    /// settings.json cannot be read (it stayed so for a quiet moment): why, with the line,
    /// column and fix. Nothing is saved or scheduled until it can.
    case settingsUnreadable(String)
    /// Something outside the page happened to notif's files.
    case changedElsewhere(OutsideChange)
}

/// What another process (or a hand) changed, as the page learns from watching notif's files.
public enum OutsideChange: Equatable, Sendable {
    /// settings.json was written, replaced or removed.
    case settings
    /// An apply finished somewhere (another page, `notif set`): the scheduler may hold other entries.
    case schedule
    /// A delivery was logged (a reminder fired, a test was sent).
    case deliveries
}

/// The terminal's size in cells.
public struct TerminalSize: Equatable, Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
