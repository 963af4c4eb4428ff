import SharedLogic

/// Asked before settings.json that cannot be read is replaced by the defaults.
enum ResetQuestion {
    static let title = "Reset to defaults?"

    static func draw(_ state: AppState, focus: Button, on canvas: inout Canvas) {
        let width = min(canvas.width - 4, 64)
        let text = "settings.json is replaced by the defaults. The file as it is now is kept beside it "
            + "(settings.json.before-reset-…), and its name is shown."
        let lines = TextWidth.wrap(text, width: width - 4, maxRows: max(1, canvas.height - 8), unicode: state.unicode)
        Chrome.question(title, lines: lines, buttons: [.reset, .cancel], focus: focus, width: width,
                        context: .confirm, state: state, on: &canvas)
    }
}
