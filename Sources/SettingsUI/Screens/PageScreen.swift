import SharedLogic

/// The NotificationSettingsPage: the six rows, the status area and the key bar.
public enum PageScreen {
    /// The first row of the settings list.
    static let firstRow = 3
    static let switchColumn = 3
    static let labelColumn = 7
    static let detailColumn = 28

    public static func draw(_ state: AppState, on canvas: inout Canvas) {
        let p = state.preferences
        let mode = p.mode == .guest ? "Guest project" : "Account project"
        Chrome.title("Notifications", right: mode, state: state, on: &canvas)
        let rows = PageRow.rows(in: state.catalog)
        for row in rows {
            drawRow(row, state: state, on: &canvas)
        }
        var line = firstRow + rows.count + 1
        Chrome.rule(row: line, state: state, on: &canvas)
        line += 1
        let next = NextReminderText.line(p, state.status, unicode: state.unicode, catalog: state.catalog)
        // The most important line: wrapped under itself rather than cut, in up to three rows
        // that leave room for the Scheduler line and a problem to show.
        let bottom = canvas.height - 2
        let problems = [state.saveProblem, state.error].compactMap { $0 }
        canvas.put(" Next reminder: ", row: line, column: 0, role: .normal)
        line = Chrome.paragraph(next.text, row: line, left: 16, width: canvas.width - 17, role: next.isDim ? .dim : .on,
                                maxRows: max(1, min(3, bottom - line - (problems.isEmpty ? 0 : 1))), state: state, on: &canvas)
        let permission = "   Permission: \(p.permission.word)"
        let source = p.mode == .account
            ? "Server: \(p.accountServer ?? "not set")"
            : SchedulerChooser.line(state, fitting: canvas.width - 2 - TextWidth.of(permission))
        canvas.put(TextWidth.truncate(" \(source)\(permission)", to: canvas.width - 1, unicode: state.unicode),
                   row: line, column: 0)
        if p.mode == .guest {
            canvas.hotspots.append(Hotspot(row: line, columns: 0..<min(canvas.width, 1 + TextWidth.of(source)), target: .schedulerLine))
        }
        line += 1
        // A warning the problem below says already (an apply refused for it) is said once.
        for warning in statusLines(state) where line < bottom && !problems.contains(where: { $0.contains(warning) }) {
            line = Chrome.paragraph("! " + warning, row: line, left: 1, width: canvas.width - 2, role: .warning, maxRows: bottom - line,
                                    state: state, on: &canvas)
        }
        // An entry notif may not write is refused on every retry.
        let retries = state.status.facts.cannotWrite == nil ? " (r retries)" : ""
        for problem in problems where line <= bottom {
            line = Chrome.paragraph(problem + retries, row: line, left: 1, width: canvas.width - 2, role: .error,
                                    maxRows: bottom - line + 1, state: state, on: &canvas)
        }
        if let notice = state.notice, line <= bottom {
            Chrome.paragraph(notice.text, row: line, left: 1, width: canvas.width - 2, role: notice.isWarning ? .warning : .notice,
                             maxRows: bottom - line + 1, state: state, on: &canvas)
        }
        Chrome.keyBar(state, context: .page, on: &canvas)
        if state.dialog == nil {
            canvas.cursor = (firstRow + state.focus.rawValue, switchColumn + 1)
        }
    }

    /// What the status area must say beyond the next reminder.
    static func statusLines(_ state: AppState) -> [String] {
        var lines: [String] = state.zoneProblem.map { [$0] } ?? []
        let p = state.preferences
        if p.mode == .account {
            lines.append("Tips & Updates reminders are a Guest feature: this Account project schedules nothing here.")
        } else if p.permission == .denied {
            lines.append("Permission is \(p.permission.word): reminders are blocked and nothing is scheduled. Press p to change it.")
        }
        if p.mode == .guest && !LocalReminders.plan(p).isEmpty || state.status.scheduler == nil && state.status.checked {
            lines.append(contentsOf: state.status.warnings)
        }
        return lines
    }

    /// One row. Focus is shown by a reversed marker and the cursor, not by repainting the whole
    /// row, so moving focus costs the terminal a few dozen bytes.
    static func drawRow(_ row: PageRow, state: AppState, on canvas: inout Canvas) {
        let p = state.preferences
        let y = firstRow + row.rawValue
        let enabled = row.isEnabled(in: p)
        let focused = state.focus == row && state.screen == .page
        let baseRole: Role = enabled ? .normal : .disabled
        if focused {
            canvas.put(state.unicode ? "›" : ">", row: y, column: 1, role: .focused)
        }
        if let toggle = row.toggle {
            let on = p[toggle]
            canvas.put(on ? "[x]" : "[ ]", row: y, column: switchColumn, role: enabled ? (on ? .on : .off) : .disabled)
        }
        canvas.put(row.item.label, row: y, column: labelColumn, role: baseRole, maxWidth: detailColumn - labelColumn - 1)
        var detail: String
        if row.item == .sound {
            detail = state.unicode ? "‹ \(p.sound.rawValue) ›" : "< \(p.sound.rawValue) >"
        } else {
            detail = row.toggle.map(state.catalog.detail) ?? ""
            if let toggle = row.toggle, state.catalog.reminder(following: toggle) != nil, p.mode == .account { detail = "Guest feature" }
        }
        // A reminder that is on but cannot fire says so on its own row, not only in the status area.
        var detailRole: Role = .dim
        if let toggle = row.toggle, p[toggle], let reminder = state.catalog.reminder(following: toggle) {
            switch LocalReminders.blockReason(for: reminder, in: p) {
            case .permissionDenied?:
                detail = "Blocked: press p"
                detailRole = .warning
            case .permissionNotDetermined?:
                detail = "Needs permission: p"
                detailRole = .warning
            default: break
            }
        }
        if !enabled { detail = row.item == .sound ? "\(p.sound.rawValue), paused: Push Notifications is off" : "Paused: Push Notifications is off" }
        canvas.put(TextWidth.truncate(detail, to: canvas.width - detailColumn - 1, unicode: state.unicode, atWord: true), row: y, column: detailColumn,
                   role: enabled ? detailRole : .disabled)
        canvas.hotspots.append(Hotspot(row: y, columns: 0..<canvas.width, target: .row(row)))
    }
}
