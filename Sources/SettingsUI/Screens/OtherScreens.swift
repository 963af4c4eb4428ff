import SharedLogic

/// Shown instead of everything else while the terminal is smaller than the page needs.
enum TooSmallScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        let need = SettingsApp.minimumSize
        let times = state.unicode ? "×" : "x"
        let roomy = state.size.width >= 30
        let lines = roomy ? [
            "Terminal too small",
            "(needs \(need.width)\(times)\(need.height), is \(state.size.width)\(times)\(state.size.height))",
            "Enlarge it or press q.",
        ] : ["Too small", "needs \(need.width)\(times)\(need.height)", "q quits"]
        var row = max(0, (canvas.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where row < canvas.height {
            let text = TextWidth.truncate(line, to: canvas.width, unicode: state.unicode)
            canvas.put(text, row: row, column: max(0, (canvas.width - TextWidth.of(text)) / 2), role: i == 0 ? .warning : .normal)
            row += 1
        }
    }
}

/// The key table, generated from `KeyMap`.
enum HelpScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        Chrome.title("Keys", right: "notif help", state: state, on: &canvas)
        let lines = KeyMap.helpLines()
        let visible = canvas.height - 4
        let start = min(state.helpScroll, max(0, lines.count - visible))
        for (i, line) in lines.dropFirst(start).prefix(visible).enumerated() {
            canvas.put(" " + line, row: 2 + i, column: 0, role: line.hasPrefix(" ") || line.isEmpty ? .normal : .title)
        }
        Chrome.keyBar(state, context: .screen, on: &canvas)
    }
}

/// The Guest delivery log, newest first.
enum HistoryScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        Chrome.title("History", right: "newest first", state: state, on: &canvas)
        let visible = canvas.height - 4
        switch state.history {
        case .loading:
            canvas.put(" Loading…", row: 2, column: 0, role: .dim)
        case .failed(let message):
            Chrome.paragraph("Could not read the history: \(message)", row: 2, left: 1, width: canvas.width - 2, role: .error, on: &canvas)
        case .records(let records) where records.isEmpty:
            Chrome.paragraph("No deliveries yet. Reminders appear here once the scheduler has run them; `t` on the page sends a test.",
                             row: 2, left: 1, width: canvas.width - 2, role: .dim, on: &canvas)
        case .server(let items, let note):
            var row = 2
            if let note {
                row = Chrome.paragraph(note, row: row, left: 1, width: canvas.width - 2, role: .warning, maxRows: 2, on: &canvas)
            }
            if items.isEmpty {
                canvas.put(" No notifications from the server yet.", row: row, column: 0, role: .dim)
            }
            let rows = canvas.height - 2 - row
            let start = min(state.historyScroll, max(0, items.count - rows))
            for (i, item) in items.dropFirst(start).prefix(max(0, rows)).enumerated() {
                let when = String(item.sentAt.prefix(16)).replacingT()
                let text = "\(when)  \(item.title)" + (item.body.isEmpty ? "" : " — \(item.body)")
                canvas.put(TextWidth.truncate(" " + text, to: canvas.width - 1, unicode: state.unicode), row: row + i, column: 0)
            }
        case .records(let records):
            let start = min(state.historyScroll, max(0, records.count - visible))
            for (i, record) in records.dropFirst(start).prefix(visible).enumerated() {
                let title = LocalReminders.reminder(id: record.reminder)?.title ?? (record.kind == .test ? "Test" : record.reminder)
                let when = String(record.time.prefix(16)).replacingT()
                let text = "\(when)  \(title.padding(to: 14))  \(record.outcome.rawValue.padding(to: 10))\(record.detail)"
                let role: Role = record.outcome == .failed ? .error : (record.outcome == .delivered ? .normal : .dim)
                canvas.put(TextWidth.truncate(" " + text, to: canvas.width - 1, unicode: state.unicode), row: 2 + i, column: 0, role: role)
            }
        }
        Chrome.keyBar(state, context: .screen, on: &canvas)
    }
}

extension String {
    fileprivate func replacingT() -> String {
        String(map { $0 == "T" ? " " : $0 })
    }
}

/// The onboarding wizard's pages.
enum OnboardingScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        guard case .onboarding(let step) = state.screen else { return }
        Chrome.title("Welcome to notif", right: "setup", state: state, on: &canvas)
        let width = min(canvas.width - 4, 70)
        let left = 2
        var row = 3
        let text: [String]
        switch step {
        case .welcome:
            text = [
                "notif keeps your Notifications settings and, for Guest projects, turns them into real reminders scheduled on this machine.",
                state.preferences.mode == .guest
                    ? "This is a Guest project: reminders are scheduled locally, and nothing is sent to a server."
                    : "This is an Account project: notifications come from your server.",
            ]
        case .guestReminders:
            text = [
                "Tips & Updates is a daily reminder at 09:00, your local time.",
                "Reminders ask for permission the first time one is turned on; you can change every setting later on the Notifications page.",
                "Turn on Tips & Updates now?",
            ]
        case .accountPermission:
            text = ["Account projects show notifications from your server. notif asks for permission to show them on this desktop."]
        }
        for paragraph in text {
            row = Chrome.paragraph(paragraph, row: row, left: left, width: width, on: &canvas) + 1
        }
        Chrome.buttons(state.wizardButtons, focus: state.wizardFocus, row: min(row + 1, canvas.height - 3), left: 0, width: canvas.width, on: &canvas)
        Chrome.keyBar(state, context: .wizard, on: &canvas)
    }
}
