import SharedLogic

/// What keys do on the page, in the Sound list and the scheduler chooser, and on the Help and
/// History screens.
extension AppState {
    mutating func pageCommand(_ command: Command, effects: inout [Effect]) {
        switch command {
        case .previous: moveFocus(by: -1)
        case .next: moveFocus(by: 1)
        case .activate: activate(focus, effects: &effects)
        case .turnOff: set(focus, on: false, effects: &effects)
        case .turnOn: set(focus, on: true, effects: &effects)
        case .permission: dialog = .permission(focus: .allow, reason: .requested)
        case .scheduler: openSchedulerList(effects: &effects)
        case .test: test(effects: &effects)
        case .history:
            screen = .history(HistoryView())
            effects.append(.loadHistory)
        case .retry: retry(effects: &effects)
        case .help: screen = .help(scroll: 0)
        case .quit, .close: requestQuit(effects: &effects)
        default: break
        }
    }

    /// While settings.json cannot be read: edit it, read it again, or reset it (asked first).
    mutating func problemCommand(_ command: Command, effects: inout [Effect]) {
        switch command {
        case .edit: effects.append(.editSettings)
        case .reload:
            notice = Notice("Reading settings.json again…")
            effects.append(.reloadPreferences)
        case .resetSettings: dialog = .resetSettings(focus: .cancel)
        case .help: screen = .help(scroll: 0)
        case .quit, .close: requestQuit(effects: &effects)
        default: break
        }
    }

    /// The installed entries show the next reminder at another time than the wanted one.
    var entriesDifferFromWanted: Bool {
        if case .at(_, _, _?) = status.reminders(for: preferences, catalog: catalog).next { return true }
        return false
    }

    /// `r`: saves again what could not be saved, else applies again after a scheduling error
    /// (or when the entries fire at another time than the reminder's).
    mutating func retry(effects: inout [Effect]) {
        if !unsaved.isEmpty {
            notice = Notice("Retrying…")
            retrying = true
            save([], effects: &effects)
        } else if error != nil || entriesDifferFromWanted {
            notice = Notice("Retrying…")
            retrying = true
            requestScheduling(.apply(choosing: false), effects: &effects)
        }
    }

    /// `t`: a test notification once notifications are allowed; asks first while nobody has decided.
    mutating func test(effects: inout [Effect]) {
        switch preferences.permission {
        case .notDetermined:
            dialog = .permission(focus: .allow, reason: .test)
        case .denied:
            notice = Notice("Test not sent: permission is \(NotificationPermission.denied.word) (p changes it).", warning: true)
        case .granted:
            if pendingSaves.isEmpty {
                sendTest(effects: &effects)
            } else {
                // The test reads the saved permission: it goes once the saves are done.
                testWaiting = true
                notice = Notice("Sending a test notification…")
            }
        }
    }

    mutating func sendTest(effects: inout [Effect]) {
        notice = Notice("Sending a test notification…")
        effects.append(.sendTest)
    }

    mutating func moveFocus(by step: Int) {
        var index = focus.rawValue
        while true {
            index += step
            let rows = PageRow.rows(in: catalog)
            guard rows.indices.contains(index) else { return }
            let row = rows[index]
            if row.isEnabled(in: preferences) {
                focus = row
                return
            }
        }
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

    // MARK: Sound list, scheduler chooser, a history entry

    mutating func listCommand(_ command: Command, effects: inout [Effect]) {
        switch dialog {
        case .schedulerList(let selected): schedulerListCommand(command, selected: selected, effects: &effects)
        case .soundList(let selected): soundListCommand(command, selected: selected, effects: &effects)
        case .historyEntry(let index): historyEntryCommand(command, index: index)
        default: break
        }
    }

    mutating func soundListCommand(_ command: Command, selected: NotificationSound, effects: inout [Effect]) {
        switch command {
        case .previous: dialog = .soundList(selected: selected == NotificationSound.allCases.first ? selected : selected.cycled(by: -1))
        case .next: dialog = .soundList(selected: selected == NotificationSound.allCases.last ? selected : selected.cycled(by: 1))
        case .activate: chooseSound(selected, effects: &effects)
        case .close: dialog = nil
        default: break
        }
    }

    mutating func chooseSound(_ sound: NotificationSound, effects: inout [Effect]) {
        dialog = nil
        if sound != preferences.sound { change(.sound(sound), effects: &effects) }
    }

    /// The chooser opens on the saved choice. Account projects schedule nothing: no chooser.
    /// What each scheduler can do here is looked at again now (a daemon may have started or
    /// stopped since the page opened): "checking…" until the shell answers.
    mutating func openSchedulerList(effects: inout [Effect]) {
        guard preferences.mode == .guest else { return }
        dialog = .schedulerList(selected: preferences.scheduler)
        status.options = []
        effects.append(.checkSchedulers)
    }

    mutating func schedulerListCommand(_ command: Command, selected: SchedulerPreference, effects: inout [Effect]) {
        let all = SchedulerPreference.allCases
        let index = all.firstIndex(of: selected)!
        switch command {
        case .previous: dialog = .schedulerList(selected: all[max(0, index - 1)])
        case .next: dialog = .schedulerList(selected: all[min(all.count - 1, index + 1)])
        case .activate: chooseScheduler(selected, effects: &effects)
        case .close: dialog = nil
        default: break
        }
    }

    /// A choice is saved and applied. Choosing the saved one again matters only when the entries
    /// are elsewhere (a one-off `--scheduler` put them there): it moves them back.
    mutating func chooseScheduler(_ choice: SchedulerPreference, effects: inout [Effect]) {
        dialog = nil
        let elsewhere = choice != .auto && status.scheduler != nil && status.scheduler?.rawValue != choice.rawValue
        if choice != preferences.scheduler || elsewhere { change(.scheduler(choice), effects: &effects) }
        // This run's scheduler was given with --scheduler or NOTIF_SCHEDULER: the choice is
        // saved, and nothing moves until notif runs without it.
        if let by = status.overriddenBy, let used = status.scheduler {
            notice = Notice("Scheduler choice \(choice.rawValue) saved. This run uses \(used.rawValue) (\(by)), so the choice takes effect the next time notif runs without it.")
        }
    }

    /// Up and Down show the neighbouring entries; Enter, Esc or q go back to the list.
    mutating func historyEntryCommand(_ command: Command, index: Int) {
        switch command {
        case .previous, .next:
            let moved = min(max(0, index + (command == .previous ? -1 : 1)), max(0, historyCount - 1))
            dialog = .historyEntry(moved)
            if var view = historyView {
                view.selection = moved
                screen = .history(view)
            }
        case .activate, .close: dialog = nil
        default: break
        }
    }

    // MARK: Help and History

    mutating func screenCommand(_ command: Command, effects: inout [Effect]) {
        switch command {
        case .previous, .next:
            let step = command == .previous ? -1 : 1
            switch screen {
            case .help(let scroll): screen = .help(scroll: max(0, scroll + step))
            case .history(var view):
                view.selection = min(max(0, view.selection + step), max(0, view.count - 1))
                screen = .history(view)
            default: break
            }
        case .activate:
            if let view = historyView, view.count > 0 { dialog = .historyEntry(view.selection) }
        case .close: screen = .page
        case .quit: requestQuit(effects: &effects)
        default: break
        }
    }
}
