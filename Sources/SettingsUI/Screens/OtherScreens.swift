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

/// The onboarding wizard's pages.
enum OnboardingScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        guard let step = state.onboardingStep else { return }
        Chrome.title("Welcome to notif", right: "setup", state: state, on: &canvas)
        // The permission prompt stands alone: the page's text and buttons behind it would
        // be a second question, and its outcome is said once the prompt is answered.
        guard state.dialog == nil else { return }
        let width = min(canvas.width - 4, 70)
        let left = 2
        var row = 3
        let text: [String]
        let offered = OnboardingOffer.reminder, on = state.preferences[OnboardingOffer.toggle]
        switch step {
        case .welcome:
            text = [
                "notif keeps your Notifications settings and, for Guest projects, turns them into real reminders scheduled on this machine.",
                state.preferences.mode == .guest
                    ? "This is a Guest project: reminders are scheduled locally, and nothing is sent to a server."
                    : "This is an Account project: notifications come from your server.",
            ]
        case .guestReminders where on && state.preferences.permission != .granted:
            text = [
                "\(offered.title) is on, but notifications are not allowed (Permission: \(state.preferences.permission.word)): nothing is scheduled until you allow them.",
                "p on the Notifications page changes the permission; every other setting is there too.",
            ]
        case .guestReminders where on:
            // What the page's status area will say: whether it fires, or why it cannot yet.
            text = [
                "\(offered.title) is on: a \(offered.recurrence.adjective) reminder at \(offered.time), your local time.",
                "Next reminder: " + NextReminderText.describe(state.preferences, state.status, unicode: state.unicode),
                // The keys the line names are the page's: say where they work (trial 40, R1).
                "You can change it, and every other setting, on the Notifications page; the keys named above work there.",
            ]
        case .guestReminders:
            text = NotifCatalog.standard.reminders.map { reminder in
                let day = if case .weekly(let day) = reminder.recurrence { "on \(day.name)s " } else { "" }
                return "\(reminder.title) is a \(reminder.recurrence.adjective) reminder \(day)at \(reminder.time), your local time."
            } + [
                "Reminders ask for permission the first time one is turned on; you can change every setting later on the Notifications page.",
                "Turn on \(offered.title) now?",
            ]
        case .accountPermission:
            let permission = state.preferences.permission
            text = permission == .notDetermined
                ? ["Account projects show notifications from your server. notif asks for permission to show them on this desktop."]
                : ["Account projects show notifications from your server.",
                   "Permission: \(permission.word). You decided this before; p on the Notifications page changes it."]
        }
        for paragraph in text {
            row = Chrome.paragraph(paragraph, row: row, left: left, width: width, state: state, on: &canvas) + 1
        }
        Chrome.buttons(state.wizardButtons, focus: state.wizardFocus, row: min(row + 1, canvas.height - 3), left: 0, width: canvas.width, on: &canvas)
        Chrome.keyBar(state, context: .wizard, on: &canvas)
    }
}
