import Glibc
import Testing
import CNcursesw
import SharedLogic
import SettingsUI
@testable import CursesTerminal

/// The painter against real ncurses, drawing into /dev/null and read back from ncurses' own
/// screen. One ncurses screen per process, so these run one at a time in one terminal.
@Suite(.serialized) struct PainterTests {
    nonisolated(unsafe) static let terminal: CursesTerminal = {
        setenv("LANG", "C.UTF-8", 1)
        return CursesTerminal(headlessTerm: "xterm-256color", size: TerminalSize(width: 80, height: 24))!
    }()

    func state(_ change: (inout AppState) -> Void = { _ in }) -> AppState {
        var p = NotificationPreferences()
        p.onboardingCompleted = true
        var state = AppState(preferences: p, status: SchedulerStatus(scheduler: "cron"), size: TerminalSize(width: 80, height: 24), unicode: true)
        change(&state)
        return state
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
        Self.terminal.paint(SettingsRenderer.render(state { $0.screen = .help }))
        let canvas = SettingsRenderer.render(state())
        Self.terminal.paint(canvas)
        #expect(Self.terminal.screenText()[3] == canvas.text(ofRow: 3))
        #expect(!Self.terminal.screenText().joined().contains("Permission prompt"))
    }

    @Test func focusedRowsMarkerIsReversedAndTheCursorRestsOnIt() {
        let s = state { $0.focus = .queueAlerts }
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
        let canvas = SettingsRenderer.render(state { $0.preferences.pushNotifications = false })
        Self.terminal.paint(canvas)
        let row = canvas.row(containing: "Promotions")!
        #expect(Self.terminal.attributes(row: row, column: 3) & notif_a_dim() != 0)
    }

    @Test func wideAndAccentedTextPaints() {
        var canvas = Canvas(width: 80, height: 24)
        canvas.put("Café ✓ 日本 done", row: 2, column: 1)
        Self.terminal.paint(canvas)
        #expect(Self.terminal.screenText()[2] == " Café ✓ 日本 done")
    }

    @Test func rolesWithoutColourStillDiffer() {
        let mono = Palette(useColor: false)
        #expect(mono.attributes(for: .focused) != mono.attributes(for: .normal))
        #expect(mono.attributes(for: .disabled) != mono.attributes(for: .normal))
        #expect(mono.attributes(for: .on) != mono.attributes(for: .off))
        #expect(mono.attributes(for: .focusedButton) != mono.attributes(for: .button))
    }
}
