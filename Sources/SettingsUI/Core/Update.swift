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
        case .key(let key):
            next.handle(key: key, effects: &effects)
        case .click(let row, let column):
            next.handle(clickAt: row, column, effects: &effects)
        case .resize(let size):
            next.size = size
        case .committed(let preferences, let status, let problem):
            next.preferences = preferences
            next.status = status
            next.unsaved = []
            next.error = problem
            if next.retrying {
                next.retrying = false
                next.notice = problem == nil ? Notice("Done: the settings are saved and scheduled.") : nil
            }
            next.announceMove()
        case .commitFailed(let changes, let preferences, let message):
            // Keep showing what the person asked for; `r` saves it again.
            next.unsaved = changes
            next.preferences = changes.reduce(preferences) { $1.applied(to: $0) }
            next.error = "Not saved: \(message)"
            next.retrying = false
            next.notice = nil
        case .testFinished(let succeeded, let message):
            next.notice = Notice(message, warning: !succeeded)
        case .historyLoaded(let content):
            next.history = content
        case .preferencesReloaded(let preferences, let status):
            // What another process saved, with this page's unsaved changes still on top.
            next.preferences = next.unsaved.reduce(preferences) { $1.applied(to: $0) }
            next.status = status
            next.announceMove()
        }
        next.keepFocusEnabled()
        return (next, effects)
    }

    /// Where keys go right now.
    public static func context(of state: AppState) -> KeyContext {
        switch state.dialog {
        case .permission: return .dialog
        case .soundList, .schedulerList: return .list
        case nil: break
        }
        switch state.screen {
        case .page: return .page
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
        if SettingsApp.isTooSmall(size) && command != .quit {
            return
        }
        switch context {
        case .page: pageCommand(command, effects: &effects)
        case .dialog: dialogCommand(command, effects: &effects)
        case .list: listCommand(command, effects: &effects)
        case .screen: screenCommand(command, effects: &effects)
        case .wizard: wizardCommand(command, effects: &effects)
        }
    }

    // MARK: Page

    mutating func pageCommand(_ command: Command, effects: inout [Effect]) {
        switch command {
        case .previous: moveFocus(by: -1)
        case .next: moveFocus(by: 1)
        case .activate: activate(focus, effects: &effects)
        case .turnOff: set(focus, on: false, effects: &effects)
        case .turnOn: set(focus, on: true, effects: &effects)
        case .permission: dialog = .permission(focus: .allow, reason: .requested)
        case .scheduler: openSchedulerList()
        case .test:
            notice = Notice("Sending a test notification…")
            effects.append(.sendTest)
        case .history:
            screen = .history
            history = .loading
            historyScroll = 0
            effects.append(.loadHistory)
        case .retry:
            guard error != nil else { return }
            notice = Notice("Retrying…")
            retrying = true
            effects.append(unsaved.isEmpty ? .retryApply : .commit(unsaved))
        case .help:
            screen = .help
            helpScroll = 0
        case .quit, .close: effects.append(.quit)
        case .allow, .deny: break
        }
    }

    mutating func moveFocus(by step: Int) {
        var index = focus.rawValue
        while true {
            index += step
            guard let row = PageRow(rawValue: index) else { return }
            if row.isEnabled(in: preferences) {
                focus = row
                return
            }
        }
    }

    mutating func keepFocusEnabled() {
        if !focus.isEnabled(in: preferences) { focus = .pushNotifications }
    }

    mutating func activate(_ row: PageRow, effects: inout [Effect]) {
        guard row.isEnabled(in: preferences) else { return }
        if let toggle = row.toggle {
            change(.toggle(toggle, !preferences[toggle]), effects: &effects)
        } else {
            dialog = .soundList(selected: preferences.sound)
        }
    }

    mutating func set(_ row: PageRow, on: Bool, effects: inout [Effect]) {
        guard row.isEnabled(in: preferences) else { return }
        if let toggle = row.toggle {
            if preferences[toggle] != on { change(.toggle(toggle, on), effects: &effects) }
        } else {
            change(.sound(preferences.sound.cycled(by: on ? 1 : -1)), effects: &effects)
        }
    }

    /// Applies a change at once (the page never waits), asks the shell to save and apply it,
    /// and opens the permission prompt when this change is the first to need it.
    mutating func change(_ change: PreferenceChange, effects: inout [Effect]) {
        let before = preferences
        preferences = change.applied(to: before)
        notice = nil
        // Unsaved earlier changes travel with this one.
        unsaved.append(change)
        effects.append(.commit(unsaved))
        if LocalReminders.wouldAskPermission(preferences) && !LocalReminders.wouldAskPermission(before) {
            dialog = .permission(focus: .allow, reason: screen == .page ? .firstReminder : .onboarding)
        }
    }

    // MARK: Permission prompt

    mutating func dialogCommand(_ command: Command, effects: inout [Effect]) {
        guard case .permission(let focused, let reason) = dialog else { return }
        switch command {
        case .previous, .next:
            dialog = .permission(focus: focused == .allow ? .deny : .allow, reason: reason)
        case .activate: decide(focused == .allow, reason: reason, effects: &effects)
        case .allow: decide(true, reason: reason, effects: &effects)
        case .deny: decide(false, reason: reason, effects: &effects)
        case .close:
            dialog = nil
            if reason == .firstReminder {
                notice = Notice("Permission needed: nothing is scheduled until you allow notifications (press p).", warning: true)
            }
            if reason == .onboarding { finishOnboarding(effects: &effects) }
        case .quit: effects.append(.quit)
        default: break
        }
    }

    mutating func decide(_ allow: Bool, reason: PromptReason, effects: inout [Effect]) {
        dialog = nil
        let permission: NotificationPermission = allow ? .granted : .denied
        preferences.permission = permission
        unsaved.append(.permission(permission))
        effects.append(.commit(unsaved))
        notice = allow
            ? Notice("Notifications allowed.")
            : Notice("Notifications blocked.", warning: true)
        if reason == .onboarding { finishOnboarding(effects: &effects) }
    }

    // MARK: Sound list and scheduler chooser

    mutating func listCommand(_ command: Command, effects: inout [Effect]) {
        if case .schedulerList(let selected) = dialog {
            schedulerListCommand(command, selected: selected, effects: &effects)
            return
        }
        guard case .soundList(let selected) = dialog else { return }
        switch command {
        case .previous: dialog = .soundList(selected: selected == NotificationSound.allCases.first ? selected : selected.cycled(by: -1))
        case .next: dialog = .soundList(selected: selected == NotificationSound.allCases.last ? selected : selected.cycled(by: 1))
        case .activate: chooseSound(selected, effects: &effects)
        case .close: dialog = nil
        case .quit: effects.append(.quit)
        default: break
        }
    }

    mutating func chooseSound(_ sound: NotificationSound, effects: inout [Effect]) {
        dialog = nil
        if sound != preferences.sound { change(.sound(sound), effects: &effects) }
    }

    /// The chooser opens on the saved choice. Account projects schedule nothing: no chooser.
    mutating func openSchedulerList() {
        guard preferences.mode == .guest else { return }
        dialog = .schedulerList(selected: preferences.scheduler)
    }

    mutating func schedulerListCommand(_ command: Command, selected: SchedulerPreference, effects: inout [Effect]) {
        let all = SchedulerPreference.allCases
        let index = all.firstIndex(of: selected)!
        switch command {
        case .previous: dialog = .schedulerList(selected: all[max(0, index - 1)])
        case .next: dialog = .schedulerList(selected: all[min(all.count - 1, index + 1)])
        case .activate: chooseScheduler(selected, effects: &effects)
        case .close: dialog = nil
        case .quit: effects.append(.quit)
        default: break
        }
    }

    /// A choice is saved and applied. Choosing the saved one again matters only when the entries
    /// are elsewhere (a one-off `--scheduler` put them there): it moves them back.
    mutating func chooseScheduler(_ choice: SchedulerPreference, effects: inout [Effect]) {
        dialog = nil
        let elsewhere = choice != .auto && status.scheduler != nil && status.scheduler != choice.rawValue
        if choice != preferences.scheduler || elsewhere { change(.scheduler(choice), effects: &effects) }
    }

    /// Says once that the entries moved to another scheduler.
    mutating func announceMove() {
        guard let moved = status.moved else { return }
        notice = Notice(moved)
        status.moved = nil
    }

    // MARK: Help and History

    mutating func screenCommand(_ command: Command, effects: inout [Effect]) {
        switch command {
        case .previous, .next:
            let step = command == .previous ? -1 : 1
            if screen == .help { helpScroll = max(0, helpScroll + step) } else { historyScroll = max(0, historyScroll + step) }
        case .close: screen = .page
        case .quit: effects.append(.quit)
        default: break
        }
    }

    // MARK: Onboarding

    /// The buttons a wizard page offers, left to right.
    public var wizardButtons: [Button] {
        switch screen {
        case .onboarding(.welcome): return [.next]
        case .onboarding(.guestReminders): return [.turnOn, .notNow]
        case .onboarding(.accountPermission): return [.next]
        default: return []
        }
    }

    mutating func wizardCommand(_ command: Command, effects: inout [Effect]) {
        let buttons = wizardButtons
        switch command {
        case .previous, .next:
            guard let index = buttons.firstIndex(of: wizardFocus) else { wizardFocus = buttons.first ?? .next; return }
            wizardFocus = buttons[(index + (command == .next ? 1 : buttons.count - 1)) % buttons.count]
        case .activate: press(wizardFocus, effects: &effects)
        case .quit, .close: effects.append(.quit)
        default: break
        }
    }

    mutating func press(_ button: Button, effects: inout [Effect]) {
        switch screen {
        case .onboarding(.welcome):
            if preferences.mode == .account {
                screen = .onboarding(.accountPermission)
                wizardFocus = .next
                dialog = .permission(focus: .allow, reason: .onboarding)
            } else {
                screen = .onboarding(.guestReminders)
                wizardFocus = .turnOn
            }
        case .onboarding(.guestReminders):
            if button == .turnOn && !preferences.tipsAndUpdates {
                // Turning it on follows the Guest prompt rules: the prompt finishes the wizard.
                change(.toggle(.tipsAndUpdates, true), effects: &effects)
                if dialog == nil { finishOnboarding(effects: &effects) }
            } else {
                finishOnboarding(effects: &effects)
            }
        case .onboarding(.accountPermission):
            finishOnboarding(effects: &effects)
        default:
            break
        }
    }

    mutating func finishOnboarding(effects: inout [Effect]) {
        preferences.onboardingCompleted = true
        unsaved.append(.onboardingCompleted)
        // One save for everything this key did.
        if case .commit? = effects.last { effects.removeLast() }
        effects.append(.commit(unsaved))
        if exitAfterOnboarding {
            effects.append(.quit)
        } else {
            screen = .page
            focus = .pushNotifications
            if notice == nil { notice = Notice("Welcome! Your settings are saved as you change them.") }
        }
    }

    // MARK: Mouse

    mutating func handle(clickAt row: Int, _ column: Int, effects: inout [Effect]) {
        guard let target = SettingsRenderer.render(self).hit(row: row, column: column) else { return }
        switch target {
        case .row(let pageRow):
            guard dialog == nil, screen == .page, pageRow.isEnabled(in: preferences) else { return }
            focus = pageRow
            activate(pageRow, effects: &effects)
        case .button(let button):
            if case .permission(_, let reason) = dialog {
                guard button == .allow || button == .deny else { return }
                decide(button == .allow, reason: reason, effects: &effects)
            } else if case .onboarding = screen, wizardButtons.contains(button) {
                wizardFocus = button
                press(button, effects: &effects)
            }
        case .sound(let sound):
            guard case .soundList = dialog else { return }
            chooseSound(sound, effects: &effects)
        case .schedulerLine:
            guard dialog == nil, screen == .page else { return }
            openSchedulerList()
        case .scheduler(let choice):
            guard case .schedulerList = dialog else { return }
            chooseScheduler(choice, effects: &effects)
        }
    }
}
