import SharedLogic

/// Shown in place of the settings while settings.json cannot be read: what is wrong (line,
/// column, fix), what stays true meanwhile, and what can be done: edit it, read it again, or
/// reset it to the defaults. The status area keeps its `Next reminder:` line.
enum ProblemScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        Chrome.title("Notifications", right: "settings.json cannot be read", state: state, on: &canvas)
        let width = canvas.width - 2
        // The status area (a rule, the next reminder, a notice) and the key bar stay at the
        // bottom; the problem, what can be done, and what stays true meanwhile, above them.
        let statusTop = canvas.height - 4
        var row = Chrome.paragraph(state.settingsProblem ?? "", row: 3, left: 1, width: width, role: .error,
                                   maxRows: max(1, statusTop - 8), state: state, on: &canvas) + 1
        let choices = [
            ("e", "edit it, checked before it is saved"),
            ("r", "read it again (once fixed elsewhere)"),
            ("d", "reset to defaults, keeping it as a copy"),
        ]
        for (key, text) in choices where row < statusTop {
            canvas.put(key, row: row, column: 3, role: .on)
            canvas.put(TextWidth.truncate(text, to: canvas.width - 7, unicode: state.unicode, atWord: true), row: row, column: 6)
            row += 1
        }
        if row + 1 < statusTop {
            Chrome.paragraph("Until it can be read, notif changes nothing: the file stays as you wrote it, and the scheduled reminders stay as they are.",
                             row: row + 1, left: 1, width: width, maxRows: statusTop - row - 1, state: state, on: &canvas)
        }
        var line = statusTop
        Chrome.rule(row: line, state: state, on: &canvas)
        line += 1
        // `notif deliver` shows nothing while the settings cannot be read.
        let next = "none \(state.unicode ? "—" : "-") " + NextReminderText.text(for: .settingsUnreadable)
        canvas.put(" Next reminder: ", row: line, column: 0, role: .normal)
        canvas.put(TextWidth.truncate(next, to: canvas.width - 17, unicode: state.unicode), row: line, column: 16, role: .dim)
        line += 1
        if let notice = state.notice {
            Chrome.paragraph(notice.text, row: line, left: 1, width: width, role: notice.isWarning ? .warning : .notice,
                             maxRows: canvas.height - 1 - line, state: state, on: &canvas)
        }
        Chrome.keyBar(state, context: .problem, on: &canvas)
    }
}
