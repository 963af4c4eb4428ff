import SharedLogic

/// The History screen: this machine's delivery log (Guest) or the server's notifications
/// (Account), newest first, one entry a row in aligned columns; Enter shows the highlighted one whole.
enum HistoryScreen {
    static func draw(_ state: AppState, on canvas: inout Canvas) {
        Chrome.title("History", right: "newest first", state: state, on: &canvas)
        var row = 2
        switch state.historyView?.content ?? .loading {
        case .loading:
            canvas.put(" Loading…", row: 2, column: 0, role: .dim)
        case .failed(let message):
            Chrome.paragraph("Could not read the history: \(message)", row: 2, left: 1, width: canvas.width - 2, role: .error,
                             maxRows: canvas.height - 4, state: state, on: &canvas)
        case .records(let records) where records.isEmpty:
            Chrome.paragraph("No deliveries yet. Reminders appear here once the scheduler has run them; `t` on the page sends a test.",
                             row: 2, left: 1, width: canvas.width - 2, role: .dim, state: state, on: &canvas)
        case .server(let items, let note):
            if let note {
                row = Chrome.paragraph(note, row: row, left: 1, width: canvas.width - 2, role: .warning, maxRows: 2, state: state, on: &canvas)
            }
            if items.isEmpty {
                canvas.put(" No notifications from the server yet.", row: row, column: 0, role: .dim)
            }
            drawRows(items.map { serverColumns($0) }, roles: items.map { _ in .normal }, from: row, state: state, on: &canvas)
        case .records(let records):
            drawRows(records.map { recordColumns($0) }, roles: records.map(role(of:)), from: row, state: state, on: &canvas)
        }
        Chrome.keyBar(state, context: .screen, on: &canvas)
    }

    /// The rows from `top`, scrolled so the highlighted one shows; each a click target.
    static func drawRows(_ rows: [[String]], roles: [Role], from top: Int, state: AppState, on canvas: inout Canvas) {
        let visible = max(0, canvas.height - 2 - top)
        guard visible > 0, !rows.isEmpty else { return }
        let selection = min(state.historyView?.selection ?? 0, rows.count - 1)
        let first = max(0, selection - visible + 1)
        // Column widths from what is shown, so every row lines up (wide characters counted as the terminal does).
        let widths = columnWidths(rows, total: canvas.width - 4)
        for (offset, columns) in rows.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let y = top + offset
            let selected = index == selection && state.dialog == nil
            var line = ""
            for (i, column) in columns.enumerated() {
                line += i == columns.count - 1 ? column : column.fitted(to: widths[i], unicode: state.unicode) + "  "
            }
            canvas.put(selected ? (state.unicode ? "›" : ">") : " ", row: y, column: 1, role: selected ? .focused : .normal)
            canvas.put(TextWidth.truncate(line, to: canvas.width - 4, unicode: state.unicode), row: y, column: 3, role: roles[index])
            canvas.hotspots.append(Hotspot(row: y, columns: 0..<canvas.width, target: .historyRow(index)))
            if selected { canvas.cursor = (y, 1) }
        }
    }

    /// Each column but the last as wide as its widest entry, the title column at most a third of the row.
    static func columnWidths(_ rows: [[String]], total: Int) -> [Int] {
        guard let count = rows.first?.count else { return [] }
        var widths = [Int](repeating: 0, count: count)
        for row in rows {
            for (i, column) in row.enumerated() { widths[i] = max(widths[i], TextWidth.of(column)) }
        }
        if count > 1 { widths[1] = min(widths[1], max(8, total / 3)) }
        return widths
    }

    static func recordColumns(_ record: DeliveryRecord) -> [String] {
        [when(record.time), title(of: record), record.outcome.rawValue, record.detail]
    }

    static func serverColumns(_ item: ServerNotification) -> [String] {
        [when(item.sentAt), item.title, item.body]
    }

    static func title(of record: DeliveryRecord) -> String {
        LocalReminders.reminder(id: record.reminder)?.title ?? (record.kind == .test ? "Test" : record.reminder)
    }

    static func role(of record: DeliveryRecord) -> Role {
        record.outcome == .failed || record.outcome == .missed ? .error : (record.outcome == .delivered ? .normal : .dim)
    }

    /// `2026-11-30 09:00` from an ISO 8601 time.
    static func when(_ time: String) -> String {
        String(String(time.prefix(16)).map { $0 == "T" ? " " : $0 })
    }
}
