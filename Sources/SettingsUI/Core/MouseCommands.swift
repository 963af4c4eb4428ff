import SharedLogic

/// What a mouse click does: the same as Space or Enter on what it hits.
extension AppState {
    mutating func handle(clickAt row: Int, _ column: Int, effects: inout [Effect]) {
        guard let target = SettingsRenderer.render(self).hit(row: row, column: column) else { return }
        switch target {
        case .row(let pageRow):
            guard dialog == nil, screen == .page, pageRow.isEnabled(in: preferences) else { return }
            focus = pageRow
            activate(pageRow, effects: &effects)
        case .button(let button):
            switch dialog {
            case .permission(_, let reason)?:
                guard button == .allow || button == .deny else { return }
                decide(button == .allow, reason: reason, effects: &effects)
            case .quitUnsaved?:
                guard button == .saveAgain || button == .quitAnyway else { return }
                answerQuit(button, effects: &effects)
            default:
                if case .onboarding = screen, wizardButtons.contains(button) {
                    wizardFocus = button
                    press(button, effects: &effects)
                }
            }
        case .sound(let sound):
            guard case .soundList = dialog else { return }
            chooseSound(sound, effects: &effects)
        case .schedulerLine:
            guard dialog == nil, screen == .page else { return }
            openSchedulerList(effects: &effects)
        case .scheduler(let choice):
            guard case .schedulerList = dialog else { return }
            chooseScheduler(choice, effects: &effects)
        case .historyRow(let index):
            guard dialog == nil, var view = historyView else { return }
            view.selection = index
            screen = .history(view)
            dialog = .historyEntry(index)
        }
    }
}
