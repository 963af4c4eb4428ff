import SharedLogic

/// The one reducer: every key, click, resize and effect result becomes a new state plus the
/// effects the shell must run. Pure: no files, processes, clock or terminal.
public enum SettingsApp {
    /// The smallest terminal the page fits in.
    public static let minimumSize = TerminalSize(width: 48, height: 16)

    public static func update(_ state: AppState, _ action: Action) -> (AppState, [Effect]) {
        var next = state
        var effects: [Effect] = []
        switch action {
        case .opened:
            // Settings that cannot be read are applied to nothing: the scheduler keeps what it holds.
            next.requestScheduling(next.settingsProblem == nil ? .apply(choosing: false) : .refresh, effects: &effects)
            if next.preferences.mode == .account { effects.append(.registerDevice) }
        case .key(let key):
            next.handle(key: key, effects: &effects)
        case .click(let row, let column):
            next.handle(clickAt: row, column, effects: &effects)
        case .resize(let size):
            next.size = size
        case .saved(let preferences):
            next.handleSaved(preferences, effects: &effects)
        case .commitFailed(let changes, let preferences, let message):
            next.handleSaveFailed(changes, preferences: preferences, message: message, effects: &effects)
        case .applied(let status, let problem):
            next.status = status
            next.error = problem
            if next.retrying && next.pendingSaves.isEmpty && next.unsaved.isEmpty {
                next.retrying = false
                next.notice = problem == nil ? Notice("Done: the settings are saved and scheduled.") : nil
            }
            next.announceMove(replacingOlder: true)
            if let effect = next.scheduling.finished() { effects.append(effect) }
            next.schedulingSettled(effects: &effects)
        case .statusRefreshed(let status):
            // A refresh never clears an apply's error: only an apply can mend what it failed at.
            if let status { next.status = status }
            next.announceMove()
            if let effect = next.scheduling.finished() { effects.append(effect) }
            next.schedulingSettled(effects: &effects)
        case .schedulersChecked(let options):
            next.status.options = options
        case .testFinished(let succeeded, let message):
            next.notice = Notice(message, warning: !succeeded)
        case .historyLoaded(let content):
            // Only the History screen lists it: loaded after it closed, it is dropped.
            guard var view = next.historyView else { break }
            view.content = content
            view.selection = min(view.selection, max(0, view.count - 1))
            next.screen = .history(view)
            if case .historyEntry(let index)? = next.dialog, index >= view.count { next.dialog = nil }
        case .preferencesReloaded(let preferences, let notice):
            if let notice {
                next.settingsNotices.append(notice)
                next.notice = Notice(notice)
            }
            if next.settingsProblem != nil {
                // It reads again (fixed, edited or reset).
                next.settingsProblem = nil
                if next.notice == .stillUnreadable { next.notice = nil }
                if case .resetSettings? = next.dialog { next.dialog = nil }
            } else {
                // This page's own save read back: nothing new.
                guard preferences != next.savedPreferences else { break }
                if next.notice?.untilNextApply == true { next.notice = nil }
            }
            // The settings in force now (another process saved them, a hand edit, a file fixed or
            // reset), with this page's changes not saved yet still on top. The scheduler is
            // brought in line with them, as `notif edit` and `notif daemon` do: a hand edit has
            // nobody else to apply it, and after a `notif set` this apply finds nothing to change.
            next.savedPreferences = preferences
            next.showSavedWithChanges()
            next.requestScheduling(.apply(choosing: false), effects: &effects)
        case .settingsUnreadable(let problem):
            // In place of the settings until it reads again; what was open over them closes.
            // The same problem again (`r` before it was fixed) is said; a new one shows itself.
            next.notice = next.settingsProblem == problem ? .stillUnreadable : nil
            next.settingsProblem = problem
            if next.dialog != nil, next.screen == .page { next.dialog = nil }
            next.requestScheduling(.refresh, effects: &effects)
        case .changedElsewhere(let change):
            switch change {
            case .settings: effects.append(.reloadPreferences)
            case .schedule: next.requestScheduling(.refresh, effects: &effects)
            case .deliveries:
                // The next reminder moves on once today's has fired; a History screen shows the new entry.
                next.requestScheduling(.refresh, effects: &effects)
                if next.historyView != nil { effects.append(.loadHistory) }
            }
        }
        next.keepFocusEnabled()
        return (next, effects)
    }

    /// Where keys go right now.
    public static func context(of state: AppState) -> KeyContext {
        switch state.dialog {
        case .permission: return .dialog
        case .quitUnsaved, .resetSettings: return .confirm
        case .soundList, .schedulerList, .historyEntry: return .list
        case nil: break
        }
        switch state.screen {
        case .page: return state.settingsProblem == nil ? .page : .problem
        case .help, .history: return .screen
        case .onboarding: return .wizard
        }
    }

    public static func isTooSmall(_ size: TerminalSize) -> Bool {
        size.width < minimumSize.width || size.height < minimumSize.height
    }
}

extension AppState {
    mutating func handle(key: Key, effects: inout [Effect]) {
        let context = SettingsApp.context(of: self)
        guard let command = KeyMap.command(for: key, in: context) else { return }
        // Anywhere, even while the terminal is too small.
        switch command {
        case .quitNow:
            effects.append(.quit)
            return
        case .suspend:
            effects.append(.suspend)
            return
        default:
            break
        }
        if SettingsApp.isTooSmall(size) && command != .quit {
            return
        }
        switch context {
        case .page: pageCommand(command, effects: &effects)
        case .dialog, .confirm: dialogCommand(command, effects: &effects)
        case .list: listCommand(command, effects: &effects)
        case .screen: screenCommand(command, effects: &effects)
        case .wizard: wizardCommand(command, effects: &effects)
        case .problem: problemCommand(command, effects: &effects)
        }
    }

    /// Applies a change at once (the page never waits), asks the shell to save and apply it,
    /// and opens the permission prompt when this change is the first to need it.
    mutating func change(_ change: PreferenceChange, effects: inout [Effect]) {
        let before = preferences
        preferences = change.applied(to: before)
        notice = nil
        save([change], effects: &effects)
        if LocalReminders.wouldAskPermission(preferences) && !LocalReminders.wouldAskPermission(before) {
            dialog = .permission(focus: .allow, reason: screen == .page ? .firstReminder : .onboarding)
        }
    }

    /// Says once that the entries moved to another scheduler (or were removed from one).
    /// - Parameter replacingOlder: an apply finished, so what an earlier apply said goes.
    mutating func announceMove(replacingOlder: Bool = false) {
        guard let moved = status.moved else {
            if replacingOlder && notice?.untilNextApply == true { notice = nil }
            return
        }
        notice = Notice(moved, untilNextApply: true)
        status.moved = nil
    }

    mutating func keepFocusEnabled() {
        if !focus.isEnabled(in: preferences) { focus = .toggle(.pushNotifications) }
    }
}
