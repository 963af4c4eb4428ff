import SharedLogic

/// Asked before settings.json that cannot be read is replaced by the defaults.
enum ResetQuestion {
    static let title = "Reset to defaults?"

    static func draw(_ state: AppState, focus: Button, on canvas: inout Canvas) {
        let width = min(canvas.width - 4, 64)
        let text = "settings.json is replaced by the defaults. The file as it is now is kept beside it "
            + "(settings.json.before-reset-…), and its name is shown."
        let lines = TextWidth.wrap(text, width: width - 4, maxRows: max(1, canvas.height - 8), unicode: state.unicode)
        let height = lines.count + 5
        let top = max(1, (canvas.height - height) / 2)
        let left = (canvas.width - width) / 2
        Chrome.box(top: top, left: left, width: width, height: height, title: title, state: state, on: &canvas)
        for (i, line) in lines.enumerated() {
            canvas.put(line, row: top + 2 + i, column: left + 2, role: .dialog)
        }
        Chrome.buttons([.reset, .cancel], focus: focus, row: top + height - 2, left: left + 1, width: width - 2, on: &canvas)
        canvas.clear(row: canvas.height - 1, columns: 0..<canvas.width)
        Chrome.keyBar(state, context: .confirm, on: &canvas)
    }
}
