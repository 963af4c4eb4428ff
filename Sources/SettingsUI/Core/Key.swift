import SharedLogic

/// A key press as the page sees it, independent of ncurses codes.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right
    case enter, tab, backTab, escape, backspace
    case home, end, pageUp, pageDown
    /// Ctrl plus a letter (`ctrl("c")`).
    case ctrl(Character)
    case function(Int)
    case unknown(Int)
}

/// Everything that can happen to the UI: input, and the outcomes of effects run by the shell.
public enum Action: Equatable, Sendable {
    case key(Key)
    /// A mouse click at a screen cell (0-based).
    case click(row: Int, column: Int)
    case resize(TerminalSize)
    /// A change was saved; `preferences` is what is on disk now and `status` the scheduler afterwards.
    /// `problem` is set when applying to the scheduler failed (the change itself is kept): the
    /// line to show (`Not scheduled: …`, or that a reminder may still fire).
    case committed(preferences: NotificationPreferences, status: SchedulerStatus, problem: String?)
    /// Saving `changes` failed: nothing changed on disk; `preferences` is what is saved. The
    /// page keeps showing the changes as wanted, and `r` tries to save them again.
    case commitFailed(changes: [PreferenceChange], preferences: NotificationPreferences, message: String)
    case testFinished(succeeded: Bool, message: String)
    case historyLoaded(HistoryContent)
    /// Another process changed the settings file.
    case preferencesReloaded(NotificationPreferences, SchedulerStatus)
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
