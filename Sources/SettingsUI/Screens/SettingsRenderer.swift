import SharedLogic

/// Draws the state onto a canvas of the state's size: the too-small screen, or the current
/// screen with any dialog over it.
public enum SettingsRenderer {
    public static func render(_ state: AppState) -> Canvas {
        var canvas = Canvas(width: state.size.width, height: state.size.height)
        if SettingsApp.isTooSmall(state.size) {
            TooSmallScreen.draw(state, on: &canvas)
            return canvas
        }
        switch state.screen {
        case .page:
            if state.settingsProblem == nil { PageScreen.draw(state, on: &canvas) } else { ProblemScreen.draw(state, on: &canvas) }
        case .help: HelpScreen.draw(state, on: &canvas)
        case .history: HistoryScreen.draw(state, on: &canvas)
        case .onboarding: OnboardingScreen.draw(state, on: &canvas)
        }
        switch state.dialog {
        case .permission(let focus, _): PermissionPrompt.draw(state, focus: focus, on: &canvas)
        case .soundList(let selected): SoundList.draw(state, selected: selected, on: &canvas)
        case .schedulerList(let selected): SchedulerChooser.draw(state, selected: selected, on: &canvas)
        case .quitUnsaved(let focus): QuitQuestion.draw(state, focus: focus, on: &canvas)
        case .resetSettings(let focus): ResetQuestion.draw(state, focus: focus, on: &canvas)
        case .historyEntry(let index): HistoryEntryView.draw(state, index: index, on: &canvas)
        case nil: break
        }
        return canvas
    }
}

/// Pieces every screen uses: the title line, rules, boxes, buttons and the key bar.
enum Chrome {
    static func title(_ text: String, right: String = "", state: AppState, on canvas: inout Canvas) {
        canvas.clear(row: 0, columns: 0..<canvas.width, role: .title)
        canvas.put(" " + text, row: 0, column: 0, role: .title)
        if !right.isEmpty {
            let w = TextWidth.of(right)
            if w + TextWidth.of(text) + 4 <= canvas.width {
                canvas.put(right, row: 0, column: canvas.width - w - 1, role: .title)
            }
        }
        rule(row: 1, state: state, on: &canvas)
    }

    static func rule(row: Int, state: AppState, on canvas: inout Canvas) {
        canvas.put(String(repeating: state.unicode ? "─" : "-", count: canvas.width), row: row, column: 0, role: .rule)
    }

    static func keyBar(_ state: AppState, context: KeyContext, on canvas: inout Canvas) {
        var omitting: Set<Command> = state.error != nil || state.entriesDifferFromWanted ? [] : [.retry]
        // Enter opens a History entry; on Help it does nothing.
        if case .help = state.screen { omitting.insert(.activate) }
        let text = KeyMap.bar(for: context, width: canvas.width - 2, unicode: state.unicode, omitting: omitting)
        canvas.put(" " + text, row: canvas.height - 1, column: 0, role: .hint)
    }

    /// One row of a list dialog between the box's sides `left` and `left + width - 1`: `› ` when
    /// it is the selected one (which gets the cursor), `●` when it is the saved choice, then `text`.
    static func choiceRow(_ text: String, saved: Bool, selected: Bool, row: Int, left: Int, width: Int, target: HitTarget,
                          state: AppState, on canvas: inout Canvas) {
        let u = state.unicode
        let line = (selected ? (u ? "› " : "> ") : "  ") + (saved ? (u ? "●" : "*") : " ") + " " + text
        let role: Role = selected ? .focused : .dialog
        canvas.clear(row: row, columns: (left + 1)..<(left + width - 1), role: role)
        canvas.put(TextWidth.truncate(line, to: width - 4, unicode: u), row: row, column: left + 2, role: role)
        canvas.hotspots.append(Hotspot(row: row, columns: (left + 1)..<(left + width - 1), target: target))
        if selected { canvas.cursor = (row, left + 2) }
    }

    /// A framed box with its title centred in the top line; the inside is cleared.
    static func box(top: Int, left: Int, width: Int, height: Int, title: String, state: AppState, on canvas: inout Canvas) {
        let u = state.unicode
        let horizontal = String(repeating: u ? "─" : "-", count: max(0, width - 2))
        canvas.put((u ? "┌" : "+") + horizontal + (u ? "┐" : "+"), row: top, column: left, role: .dialog)
        for row in (top + 1)..<(top + height - 1) {
            canvas.clear(row: row, columns: left..<(left + width), role: .dialog)
            canvas.put(u ? "│" : "|", row: row, column: left, role: .dialog)
            canvas.put(u ? "│" : "|", row: row, column: left + width - 1, role: .dialog)
        }
        canvas.put((u ? "└" : "+") + horizontal + (u ? "┘" : "+"), row: top + height - 1, column: left, role: .dialog)
        if !title.isEmpty {
            let text = " " + TextWidth.truncate(title, to: width - 6, unicode: u) + " "
            canvas.put(text, row: top, column: left + (width - TextWidth.of(text)) / 2, role: .dialog)
        }
    }

    /// A question in a centred box: its lines, then its buttons, over the key bar of `context`.
    static func question(_ title: String, lines: [String], buttons: [Button], focus: Button, width: Int,
                         context: KeyContext, state: AppState, on canvas: inout Canvas) {
        let height = lines.count + 5
        let top = max(1, (canvas.height - height) / 2)
        let left = (canvas.width - width) / 2
        box(top: top, left: left, width: width, height: height, title: title, state: state, on: &canvas)
        for (i, line) in lines.enumerated() {
            canvas.put(line, row: top + 2 + i, column: left + 2, role: .dialog)
        }
        self.buttons(buttons, focus: focus, row: top + height - 2, left: left + 1, width: width - 2, on: &canvas)
        canvas.clear(row: canvas.height - 1, columns: 0..<canvas.width)
        keyBar(state, context: context, on: &canvas)
    }

    /// Buttons centred on `row` within [left, left+width); the focused one is bracketed so it
    /// shows without colour. Adds their hotspots.
    static func buttons(_ buttons: [Button], focus: Button, row: Int, left: Int, width: Int, on canvas: inout Canvas) {
        let labels = buttons.map { $0 == focus ? "[ \($0.title) ]" : "  \($0.title)  " }
        let total = labels.reduce(0) { $0 + TextWidth.of($1) } + 3 * (labels.count - 1)
        var col = left + max(0, (width - total) / 2)
        for (button, label) in zip(buttons, labels) {
            let w = TextWidth.of(label)
            canvas.put(label, row: row, column: col, role: button == focus ? .focusedButton : .button)
            canvas.hotspots.append(Hotspot(row: row, columns: col..<(col + w), target: .button(button)))
            if button == focus { canvas.cursor = (row, col + 2) }
            col += w + 3
        }
    }

    /// Writes wrapped paragraphs from `row`; returns the next free row. Text that does not fit
    /// in `maxRows` ends at a word boundary with an ellipsis, so a cut is never silent.
    @discardableResult
    static func paragraph(_ text: String, row: Int, left: Int, width: Int, role: Role = .normal, maxRows: Int = .max,
                          state: AppState? = nil, on canvas: inout Canvas) -> Int {
        var r = row
        for line in TextWidth.wrap(text, width: width, maxRows: maxRows, unicode: state?.unicode ?? true) {
            canvas.put(line, row: r, column: left, role: role)
            r += 1
        }
        return r
    }
}
