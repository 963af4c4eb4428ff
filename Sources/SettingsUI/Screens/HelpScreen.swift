import SharedLogic

/// The key table, generated from `KeyMap`, wrapped at word boundaries to the terminal's width.
enum HelpScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        Chrome.title("Keys", right: "notif help", state: state, on: &canvas)
        let lines = layout(width: canvas.width - 2, unicode: state.unicode)
        let visible = canvas.height - 4
        let scroll = if case .help(let scroll) = state.screen { scroll } else { 0 }
        let start = min(scroll, max(0, lines.count - visible))
        for (i, line) in lines.dropFirst(start).prefix(visible).enumerated() {
            canvas.put(" " + line.text, row: 2 + i, column: 0, role: line.heading ? .title : .normal)
        }
        if let whole = moreLine(start: start, visible: visible, total: lines.count, unicode: state.unicode) {
            let more = TextWidth.truncate(whole, to: canvas.width - 2, unicode: state.unicode)
            canvas.put(more, row: canvas.height - 2, column: max(0, canvas.width - 1 - TextWidth.of(more)), role: .dim)
        }
        Chrome.keyBar(state, context: .screen, on: &canvas)
    }

    /// Which lines show and that there are more above or below (`lines 1-20 of 48, more below`);
    /// nil when the help fits.
    static func moreLine(start: Int, visible: Int, total: Int, unicode: Bool) -> String? {
        guard total > visible, visible > 0 else { return nil }
        let end = min(total, start + visible)
        let dash = unicode ? "–" : "-"
        let (up, down) = unicode ? ("↑", "↓") : ("Up", "Down")
        let more = start == 0 ? "\(down) more below" : end == total ? "\(up) more above" : "\(up)\(unicode ? "" : "/")\(down) more above and below"
        return "lines \(start + 1)\(dash)\(end) of \(total), \(more)"
    }

    /// The help as screen lines of at most `width` columns: key names in a column, what they do
    /// beside them, wrapped under itself.
    static func layout(width: Int, unicode: Bool) -> [(text: String, heading: Bool)] {
        let entries = KeyMap.helpLines()
        // As wide as the longest key names (and a gap), at most half the line.
        let longest = entries.map { if case .binding(let keys, _) = $0 { return TextWidth.of(keys) } else { return 0 } }.max() ?? 0
        let keyColumn = min(longest + 4, width / 2)
        var result: [(text: String, heading: Bool)] = []
        for line in entries {
            switch line {
            case .heading(let title):
                result.append((TextWidth.truncate(title, to: width, unicode: unicode), true))
            case .text(let text):
                if text.isEmpty { result.append(("", false)) }
                for part in TextWidth.wrap(text, width: width, unicode: unicode) { result.append((part, false)) }
            case .binding(let keys, let help):
                let indent = String(repeating: " ", count: keyColumn)
                var wrapped = TextWidth.wrap(help, width: width - keyColumn, unicode: unicode)
                if TextWidth.of(keys) + 2 > keyColumn - 1 {
                    // Long key names get a line of their own.
                    result.append(("  " + keys, false))
                } else if !wrapped.isEmpty {
                    result.append((("  " + keys).padding(to: keyColumn) + wrapped.removeFirst(), false))
                }
                for part in wrapped { result.append((indent + part, false)) }
            }
        }
        return result
    }
}
