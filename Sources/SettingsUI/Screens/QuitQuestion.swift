import SharedLogic

/// Asked when quitting while changes are not saved: what is not saved and why, `Save again` or `Quit anyway`.
enum QuitQuestion {
    static let title = "Quit without saving?"

    static func draw(_ state: AppState, focus: Button, on canvas: inout Canvas) {
        let width = min(canvas.width - 4, 64)
        let inner = width - 4
        var paragraphs = [(state.failedSaveAgain > 0 ? "Tried again, still not saved: " : "Not saved: ") + "\(state.unsaved.summary)."]
        if let problem = state.saveProblem {
            paragraphs.append("Why: " + (problem.hasPrefix("Not saved: ") ? String(problem.dropFirst("Not saved: ".count)) : problem))
        }
        paragraphs.append("Quit anyway and these changes are lost.")
        let maxText = max(1, canvas.height - 8)
        var lines: [String] = []
        for paragraph in paragraphs {
            lines += TextWidth.wrap(paragraph, width: inner, maxRows: max(1, maxText - lines.count), unicode: state.unicode)
            if lines.count >= maxText { break }
        }
        Chrome.question(title, lines: lines, buttons: [.saveAgain, .quitAnyway], focus: focus, width: width,
                        context: .confirm, state: state, on: &canvas)
    }
}
