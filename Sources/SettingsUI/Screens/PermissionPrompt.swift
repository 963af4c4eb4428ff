import SharedLogic

/// The modal permission prompt: `Allow` and `Don't allow`.
public enum PermissionPrompt {
    public static let title = "Allow notifications?"

    static func message(_ state: AppState) -> String {
        if case .permission(_, .test)? = state.dialog {
            return "notif would like to show notifications. A test is sent once you allow them."
        }
        return state.preferences.mode == .account
            ? "notif would like to show notifications from your Account project's server on this desktop."
            : "notif would like to show notifications, such as "
                + NotifCatalog.standard.reminders.map { "a \($0.title) reminder \($0.recurrence.every) at \($0.time)" }.joined(separator: " or ") + "."
    }

    static func draw(_ state: AppState, focus: Button, on canvas: inout Canvas) {
        let width = min(canvas.width - 4, 60)
        let inner = width - 4
        let lines = TextWidth.wrap(message(state), width: inner) + [TextWidth.truncate("You can change this later with p.", to: inner)]
        Chrome.question(title, lines: lines, buttons: [.allow, .deny], focus: focus, width: width,
                        context: .dialog, state: state, on: &canvas)
    }
}

/// The Sound list opened with Enter on the Sound row.
enum SoundList {
    static func draw(_ state: AppState, selected: NotificationSound, on canvas: inout Canvas) {
        let width = 28
        let height = NotificationSound.allCases.count + 4
        let top = PageScreen.firstRow + PageRow.sound.rawValue - 1
        let left = min(PageScreen.detailColumn - 2, canvas.width - width)
        let topRow = max(1, min(top, canvas.height - height - 1))
        Chrome.box(top: topRow, left: left, width: width, height: height, title: "Sound", state: state, on: &canvas)
        for (i, sound) in NotificationSound.allCases.enumerated() {
            Chrome.choiceRow(sound.rawValue, saved: sound == state.preferences.sound, selected: sound == selected, row: topRow + 2 + i,
                             left: left, width: width, target: .sound(sound), state: state, on: &canvas)
        }
        canvas.clear(row: canvas.height - 1, columns: 0..<canvas.width)
        Chrome.keyBar(state, context: .list, on: &canvas)
    }
}
