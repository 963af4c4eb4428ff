import Testing
import SharedLogic
@testable import SettingsUI

/// Column widths come from the injected `ColumnWidths` (the page's shell injects the C
/// library's); wrapped text breaks at word boundaries and says where it was cut; History rows
/// stay aligned whatever the titles hold, and an entry opens whole.
@Suite struct TextLayoutTests {
    static let items = [
        ServerNotification(id: "7", title: "Deployed ✅", body: "All good", sentAt: "2026-11-29T18:00:00Z"),
        ServerNotification(id: "8", title: "Launch 🚀 day", body: "Go", sentAt: "2026-11-29T17:00:00Z"),
        ServerNotification(id: "9", title: "Plain title", body: "Body", sentAt: "2026-11-29T16:00:00Z"),
    ]

    func history(_ items: [ServerNotification]) -> Script {
        var s = Script(preferences: .with { $0.mode = .account; $0.accountServer = "https://example.org" })
        s.press(.char("H"))
        s.send(.historyLoaded(.server(items, note: nil)))
        return s
    }

    /// The screen column where `needle` starts on the canvas row holding it (wide cells counted twice).
    func column(of needle: String, in canvas: Canvas) -> Int? {
        guard let row = canvas.row(containing: needle) else { return nil }
        let first = needle.unicodeScalars.first!
        for col in 0..<canvas.width where canvas[row, col].scalar == first && !canvas[row, col].continuation {
            var text = ""
            var c = col
            while c < canvas.width && text.unicodeScalars.count < needle.unicodeScalars.count {
                if !canvas[row, c].continuation { text.unicodeScalars.append(canvas[row, c].scalar) }
                c += 1
            }
            if text == needle { return col }
        }
        return nil
    }

    @Test func widthsComeFromTheInjectedTableAndRowsStayAligned() {
        // A table where ✅ and 🚀 take two columns, as glibc's wcwidth says.
        let two = ColumnWidths { ["✅", "🚀"].contains($0) ? 2 : UnicodeWidthTable.columns(of: $0) }
        // And one that says one, as the old built-in table did: the cells must follow whichever is in force.
        let one = ColumnWidths { ["✅", "🚀"].contains($0) ? 1 : UnicodeWidthTable.columns(of: $0) }
        for (widths, wide) in [(two, true), (one, false)] {
            TextWidth.$columns.withValue(widths) {
                let canvas = history(Self.items).canvas
                let bodies = ["All good", "Go", "Body"].map { column(of: $0, in: canvas) }
                #expect(bodies.allSatisfy { $0 != nil && $0 == bodies[0] }, "bodies start in one column: \(bodies)")
                let row = canvas.row(containing: "Deployed")!
                let tick = (0..<canvas.width).first { canvas[row, $0].scalar == "✅" }!
                #expect(canvas[row, tick + 1].continuation == wide, "✅ takes \(wide ? 2 : 1) cells")
            }
        }
        TextWidth.$columns.withValue(two) { assertSnapshot(history(Self.items).canvas, named: "history-emoji") }
    }

    @Test func aCharacterTheTerminalCannotShowTakesOneColumnAsAQuestionMark() {
        let none = ColumnWidths { $0.isASCII ? 1 : -1 }
        TextWidth.$columns.withValue(none) {
            let canvas = history(Self.items).canvas
            #expect(canvas.text.contains("Deployed ?") && canvas.text.contains("Launch ? day"))
            let bodies = ["All good", "Go", "Body"].map { column(of: $0, in: canvas) }
            #expect(bodies.allSatisfy { $0 == bodies[0] })
        }
    }

    /// LANG=C: notif's own punctuation is drawn in ASCII (`…` as `...`, `—` as `-`), not as `?`,
    /// and what follows it lines up with what the stand-in takes.
    @Test func notifsOwnPunctuationHasASCIIStandInsWhereTheTerminalCannotShowIt() {
        let none = ColumnWidths { $0.isASCII ? 1 : -1 }
        TextWidth.$columns.withValue(none) {
            var canvas = Canvas(width: 40, height: 2)
            let used = canvas.put("Sending a test notification… done", row: 0, column: 0)
            #expect(canvas.text(ofRow: 0).hasPrefix("Sending a test notification... done"), "\(canvas.text(ofRow: 0))")
            #expect(used == 35)
            canvas.put("none — off “x” é", row: 1, column: 0)
            #expect(canvas.text(ofRow: 1).hasPrefix("none - off \"x\" ?"), "\(canvas.text(ofRow: 1))")
        }
    }

    @Test func enterOpensAHistoryEntryWhole() {
        let long = String(repeating: "Your order is ready at the counter. ", count: 6)
        var s = history([ServerNotification(id: "10", title: "Order 42", body: long, sentAt: "2026-11-29T18:00:00Z")] + Self.items)
        #expect(s.screen.contains("…"), "the row is cut")
        s.press(.enter)
        #expect(s.state.dialog == .historyEntry(0))
        let text = s.screen
        #expect(text.contains("Entry 1 of 4") && text.contains("Sent: 2026-11-29T18:00:00Z") && text.contains("Order 42"))
        let shown = text.split(separator: "\n").map { String($0.filter { $0 != "│" }).split(separator: " ").joined(separator: " ") }
            .joined(separator: " ")
        #expect(shown.contains(long.split(separator: " ").joined(separator: " ")), "the whole body is shown")
        assertSnapshot(s.canvas, named: "history-entry")
        s.press(.down)
        #expect(s.state.dialog == .historyEntry(1) && s.screen.contains("Deployed"))
        s.press(.escape)
        #expect(s.state.dialog == nil && s.state.historyView?.selection == 1)
        // A click on a row opens it too.
        let row = s.canvas.row(containing: "Plain title")!
        s.send(.click(row: row, column: 10))
        #expect(s.state.dialog == .historyEntry(3))
        // Guest records open with every field.
        var g = Script(preferences: .with { _ in })
        g.press(.char("H"))
        g.send(.historyLoaded(.records([DeliveryRecord(time: "2026-11-30T09:00:01+01:00", day: CivilDate(year: 2026, month: 11, day: 30),
                                                        reminder: "tips-and-updates", kind: .scheduled, outcome: .waiting, detail: long)])))
        g.press(.enter)
        #expect(g.screen.contains("Reminder: Tips & Updates (tips-and-updates)") && g.screen.contains("Outcome: waiting"))
        #expect(g.screen.contains("Run: the day's reminder (a scheduler's run, or its waiter)"), "\(g.screen)")
        // A test notification reads as one, not "Test (test, test)".
        var t = Script(preferences: .with { _ in })
        t.press(.char("H"))
        t.send(.historyLoaded(.records([DeliveryRecord(time: "2026-11-30T09:00:01+01:00", day: CivilDate(year: 2026, month: 11, day: 30),
                                                        reminder: "test", kind: .test, outcome: .delivered, detail: "shown")])))
        t.press(.enter)
        #expect(t.screen.contains("Test notification") && t.screen.contains("Run: a test (t on the page, or `notif test`)"), "\(t.screen)")
        #expect(!t.screen.contains("(test, test)"), "\(t.screen)")
    }

    @Test func helpWrapsAtWordBoundariesAtTheSmallestSize() {
        var s = Script(preferences: .with { _ in }, size: SettingsApp.minimumSize)
        s.press(.char("?"))
        let lines = HelpScreen.layout(width: SettingsApp.minimumSize.width - 2, unicode: true)
        var words = Set<String>()
        for line in KeyMap.helpLines() {
            switch line {
            case .binding(_, let help): help.split(separator: " ").forEach { words.insert(String($0)) }
            case .text(let text): text.split(separator: " ").forEach { words.insert(String($0)) }
            case .heading: break
            }
        }
        for line in lines {
            #expect(TextWidth.of(line.text) <= SettingsApp.minimumSize.width - 2, "too wide: \(line.text)")
        }
        // Every word of every help text is on some line whole.
        let shown = Set(lines.flatMap { $0.text.split(separator: " ").map(String.init) })
        #expect(words.subtracting(shown).isEmpty, "cut words: \(words.subtracting(shown))")
        assertSnapshot(s.canvas, named: "help-minimum")
    }

    @Test func paragraphsCutAtAWordBoundaryWithAnEllipsis() {
        let lines = TextWidth.wrap("notif could not remove its old cron entry because crontab hangs", width: 20, maxRows: 2)
        #expect(lines == ["notif could not", "remove its old …"])
        #expect(TextWidth.wrap("short text", width: 20, maxRows: 2) == ["short text"])
        #expect(TextWidth.wrap("a b c d e f g h", width: 5, maxRows: 1, unicode: false) == ["a ..."])
        // A warning at the smallest size ends in … at a word, never mid-word.
        var s = Script(preferences: .with { $0[.tipsAndUpdates] = true; $0.permission = .granted }, size: SettingsApp.minimumSize)
        s.state.status.warnings = ["embedded: `notif daemon` is not running, and the built-in scheduler only fires while it runs; start it, or run `notif daemon --install-autostart` so it starts at each login"]
        let text = s.screen
        #expect(text.contains("…"), "\(text)")
        for line in text.split(separator: "\n") where line.hasSuffix("…") {
            #expect(line.hasSuffix(" …"), "cut mid-word: \(line)")
        }
    }
}
