import SharedLogic

/// One history entry in full, over the History screen: every field, and the whole text wrapped.
enum HistoryEntryView {
    static func draw(_ state: AppState, index: Int, on canvas: inout Canvas) {
        let lines = text(state, index: index)
        let width = min(canvas.width - 4, 72)
        let inner = width - 4
        let wrapped = lines.flatMap { $0.isEmpty ? [""] : TextWidth.wrap($0, width: inner, unicode: state.unicode) }
        let room = max(1, canvas.height - 6)
        var shown = Array(wrapped.prefix(room))
        if wrapped.count > room {
            shown[room - 1] = TextWidth.wrap(wrapped[(room - 1)...].joined(separator: " "), width: inner, maxRows: 1, unicode: state.unicode).first ?? ""
        }
        let height = shown.count + 4
        let top = max(1, (canvas.height - 1 - height) / 2)
        let left = (canvas.width - width) / 2
        Chrome.box(top: top, left: left, width: width, height: height, title: "Entry \(index + 1) of \(state.historyCount)", state: state, on: &canvas)
        for (i, line) in shown.enumerated() {
            canvas.put(line, row: top + 2 + i, column: left + 2, role: .dialog)
        }
        canvas.cursor = (top + 2, left + 2)
        canvas.clear(row: canvas.height - 1, columns: 0..<canvas.width)
        Chrome.keyBar(state, context: .list, on: &canvas)
    }

    /// How the entry came about, in words.
    static func kindWords(_ kind: DeliveryKind) -> String {
        switch kind {
        case .scheduled: "the day's reminder (a scheduler's run, or its waiter)"
        case .catchUp: "late, for a time missed earlier that day (catch-up, by an earlier notif)"
        case .test: "a test (t on the page, or `notif test`)"
        case .push: "from the server's history (push)"
        case .button: "a button pressed on the notification, or why none can be"
        }
    }

    /// The entry's fields, one a paragraph.
    static func text(_ state: AppState, index: Int) -> [String] {
        switch state.historyView?.content {
        case .records(let records) where records.indices.contains(index):
            let record = records[index]
            let what = record.kind == .test ? "Test notification" : "Reminder: \(HistoryScreen.title(of: record)) (\(record.reminder))"
            return ["Time: \(record.time)", what, "Run: \(kindWords(record.kind))", "Outcome: \(record.outcome.rawValue)", "", record.detail]
        case .server(let items, _) where items.indices.contains(index):
            let item = items[index]
            return ["Sent: \(item.sentAt)", "", item.title] + (item.body.isEmpty ? [] : ["", item.body])
        default:
            return ["This entry is no longer in the history."]
        }
    }
}
