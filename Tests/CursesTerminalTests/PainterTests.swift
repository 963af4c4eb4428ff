import Glibc
import Testing
import CNcursesw
import SharedLogic
import SettingsUI
@testable import CursesTerminal

/// The painter against real ncurses, drawing into /dev/null and read back from ncurses' own
/// screen. One ncurses screen per process, so these run one at a time in one terminal, and it
/// paints without colour (as with NO_COLOR) on a terminal that has colours: every meaning must
/// survive in the attributes alone.
@Suite(.serialized) struct PainterTests {
    nonisolated(unsafe) static let terminal: CursesTerminal = {
        setenv("LANG", "C.UTF-8", 1)
        return CursesTerminal(headlessTerm: "xterm-256color", size: TerminalSize(width: 80, height: 24), useColor: false)!
    }()

    /// The colour-pair bits of an attribute (A_COLOR: pair 255 sets all of them).
    static let colourBits = notif_color_pair(255)

    func state(_ change: (inout AppState) -> Void = { _ in }) -> AppState {
        var p = NotificationPreferences()
        p.onboardingCompleted = true
        var state = AppState(preferences: p, status: SchedulerStatus(scheduler: .cron), size: TerminalSize(width: 80, height: 24), unicode: true)
        change(&state)
        return state
    }

    /// What an unknown TERM is told to try instead is a type this system's terminfo has; the
    /// look-up leaves the painter's terminal as it was (so it runs in this serialized suite).
    @Test func anUnknownTerminalTypeGetsAFallbackThisSystemKnows() {
        _ = Self.terminal
        #expect(notif_terminal_known("xterm-256color") != 0 && notif_terminal_known("no-such-terminal-xyz") == 0)
        for term in ["xterm-kitty", "no-such-terminal-xyz", "alacritty", "", "dumb"] {
            let fallback = CursesTerminal.fallback(for: term)
            #expect(fallback == "xterm-256color", "TERM=\(term): \(fallback ?? "none")")
        }
        if notif_terminal_known("screen") != 0 && notif_terminal_known("screen-256color") != 0 {
            #expect(CursesTerminal.fallback(for: "screen.xterm-new") == "screen-256color")
        }
        let canvas = SettingsRenderer.render(state())
        Self.terminal.paint(canvas)
        #expect(Self.terminal.screenText()[0] == canvas.text(ofRow: 0))
    }

    @Test func whatIsPaintedIsWhatTheCanvasSays() {
        let canvas = SettingsRenderer.render(state())
        Self.terminal.paint(canvas)
        let screen = Self.terminal.screenText()
        for row in 0..<23 {
            #expect(screen[row] == canvas.text(ofRow: row), "row \(row)")
        }
        // The bottom-right cell is left out (it would scroll); the rest of the last row matches.
        #expect(canvas.text(ofRow: 23).hasPrefix(screen[23]))
    }

    @Test func repaintsReplaceEverythingWithoutLeftovers() {
        Self.terminal.paint(SettingsRenderer.render(state { $0.screen = .help(scroll: 0) }))
        let canvas = SettingsRenderer.render(state())
        Self.terminal.paint(canvas)
        #expect(Self.terminal.screenText()[3] == canvas.text(ofRow: 3))
        #expect(!Self.terminal.screenText().joined().contains("Permission prompt"))
    }

    @Test func focusedRowsMarkerIsReversedAndTheCursorRestsOnIt() {
        let s = state { $0.focus = .toggle(.queueAlerts) }
        let canvas = SettingsRenderer.render(s)
        Self.terminal.paint(canvas)
        let cursor = Self.terminal.cursorPosition // read first: reading cells moves it
        let row = canvas.row(containing: "Queue alerts")!
        #expect(cursor.row == row)
        #expect(cursor.column == canvas.cursor?.column)
        #expect(Self.terminal.attributes(row: row, column: 1) & notif_a_reverse() != 0)
        #expect(Self.terminal.attributes(row: row - 1, column: 1) & notif_a_reverse() == 0)
    }

    @Test func disabledRowsAreDimEvenWithoutColour() {
        let canvas = SettingsRenderer.render(state { $0.preferences[.pushNotifications] = false })
        Self.terminal.paint(canvas)
        let row = canvas.row(containing: "Promotions")!
        let enabled = canvas.row(containing: "Push Notifications")!
        let attributes = Self.terminal.attributes(row: row, column: 3)
        #expect(attributes & Self.colourBits == 0, "painted without colour")
        #expect(attributes & notif_a_dim() != 0)
        #expect(Self.terminal.attributes(row: enabled, column: 3) & notif_a_dim() == 0, "an enabled row is not dim")
    }

    @Test func aColourTerminalGetsColoursOnTopOfTheAttributes() {
        // The suite's screen first: colours are looked up on it.
        #expect(Self.terminal.attributes(for: .on) & Self.colourBits == 0, "the suite's terminal paints without colour")
        let colour = Palette(useColor: true)
        #expect(colour.colors, "xterm-256color has colours")
        #expect(colour.attributes(for: .error) & Self.colourBits != 0)
        #expect(colour.attributes(for: .error) & notif_a_bold() != 0, "the attribute stays under the colour")
    }

    /// Readable on a light background too (xterm's default is black on white): what is on,
    /// warnings and notices are bold in the terminal's own foreground, never yellow, green or cyan.
    @Test func warningsAndOnAreTheTerminalsOwnForegroundInBold() {
        let colour = Palette(useColor: true)
        for role in [Role.on, .warning] {
            #expect(colour.attributes(for: role) & Self.colourBits == 0, "\(role) is coloured")
            #expect(colour.attributes(for: role) & notif_a_bold() != 0, "\(role) is not bold")
        }
        #expect(colour.attributes(for: .notice) & Self.colourBits == 0, "a notice is coloured")
    }

    @Test func wideAndAccentedTextPaints() {
        var canvas = Canvas(width: 80, height: 24)
        canvas.put("Café ✓ 日本 done", row: 2, column: 1)
        Self.terminal.paint(canvas)
        #expect(Self.terminal.screenText()[2] == " Café ✓ 日本 done")
    }

    /// With the C library's widths (what the page runs with), what follows an emoji or a symbol
    /// is where ncurses puts it: the canvas's column of every body is the screen's.
    @Test func emojiTitlesKeepTheirRowsAlignedOnTheRealScreen() {
        setlocale(LC_CTYPE, "C.UTF-8")
        #expect(ColumnWidths.system.columns("✅") == 2 && ColumnWidths.system.columns("🚀") == 2 && ColumnWidths.system.columns("é") == 1)
        let items = [ServerNotification(id: "1", title: "Deployed ✅ ✔ ★", body: "All good", sentAt: "2026-11-29T18:00:00Z"),
                     ServerNotification(id: "2", title: "Launch 🚀 日本", body: "Go", sentAt: "2026-11-29T17:00:00Z"),
                     ServerNotification(id: "3", title: "Plain title", body: "Body", sentAt: "2026-11-29T16:00:00Z")]
        let canvas = TextWidth.$columns.withValue(.system) { () -> Canvas in
            let s = state { $0.preferences.mode = .account; $0.screen = .history(HistoryView(content: .server(items, note: nil))) }
            return SettingsRenderer.render(s)
        }
        Self.terminal.paint(canvas)
        for (item, row) in zip(items, 2...) {
            let column = (0..<canvas.width).first { col in
                !canvas[row, col].continuation && canvas[row, col].scalar == item.body.unicodeScalars.first!
                    && (col == 0 || canvas[row, col - 1].scalar == " ")
            }
            #expect(column == (0..<canvas.width).first { canvas[2, $0].scalar == "A" && canvas[2, $0 - 1].scalar == " " }, "\(item.title)")
            #expect(Self.terminal.screenText(row: row, from: column ?? 0) == item.body, "\(item.title): ncurses has \(Self.terminal.screenText()[row])")
        }
    }

    @Test func rolesWithoutColourStillDiffer() {
        let mono = Palette(useColor: false)
        #expect(mono.attributes(for: .focused) != mono.attributes(for: .normal))
        #expect(mono.attributes(for: .disabled) != mono.attributes(for: .normal))
        #expect(mono.attributes(for: .on) != mono.attributes(for: .off))
        #expect(mono.attributes(for: .focusedButton) != mono.attributes(for: .button))
    }
}
