import CNcursesw
import Glibc
import SettingsUI

/// Why the terminal cannot host the page, and a terminal type that would do instead.
public struct TerminalProblem: Error, Equatable, Sendable {
    public let message: String
    /// A TERM this system knows, to try instead (nil when changing TERM would not help).
    public var fallback: String? = nil
}

/// What the key loop reads next.
public enum TerminalInput: Equatable, Sendable {
    case action(Action)
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived: restore the terminal and end.
    case signal(Int32)
    /// SIGTSTP arrived (`kill -TSTP`): suspend as Ctrl-Z does.
    case suspend
    /// stdin closed (or cannot be read): nothing more will come.
    case endOfInput
    /// Nothing the page understands (e.g. a mouse move); read again.
    case nothing
    /// A descriptor given to `wake(on:)` became readable (results in the shell's mailbox, files
    /// changed): the caller reads it.
    case woken(Int32)
}

/// The thin ncurses layer: checks the terminal, paints canvases, reads keys, and always
/// gives the terminal back as it found it.
public final class CursesTerminal {
    private let palette: Palette
    public let unicode: Bool
    private var active = true

    /// Takes over the terminal, or says why it cannot (no tty, unknown TERM, TERM=dumb) without
    /// touching it: a message instead of an ncurses abort or a spinning loop.
    /// - Parameter purpose: what needs the terminal, for the message (`the settings page`).
    public static func start(environment lookup: (String) -> String?, purpose: String) -> Result<CursesTerminal, TerminalProblem> {
        let unicode = notif_setup_locale() != 0
        let term = lookup("TERM") ?? ""
        switch Int(notif_start_screen()) {
        case Int(NOTIF_SCREEN_OK): return .success(CursesTerminal(started: lookup, unicode: unicode))
        case Int(NOTIF_NO_TTY): return .failure(TerminalProblem(message: "\(purpose) needs a terminal: stdin and stdout must be a tty"))
        case Int(NOTIF_NO_TERM): return .failure(TerminalProblem(message: "TERM is not set, so the terminal type is unknown", fallback: fallback(for: term)))
        case Int(NOTIF_UNKNOWN_TERM):
            return .failure(TerminalProblem(message: "TERM=\(term) is not known to this system: it has no terminfo entry for it",
                                            fallback: fallback(for: term)))
        default:
            // TERM=dumb is said where the terminal is one (an editor's shell): no other TERM would help.
            return .failure(TerminalProblem(message: "TERM=\(term) names a terminal that cannot move the cursor"))
        }
    }

    /// A terminal type this system knows that can stand in for `term`: its family's 256-colour
    /// entry or the family itself (`xterm-kitty` → xterm-256color, `tmux-direct` →
    /// tmux-256color), else xterm's, which nearly every terminal emulates.
    public static func fallback(for term: String) -> String? {
        let family = String(term.prefix { $0 != "-" && $0 != "." })
        let candidates = [family + "-256color", family, "xterm-256color", "xterm", "vt100"]
        return candidates.first { !$0.isEmpty && !$0.hasPrefix("-") && $0 != term && notif_terminal_known($0) != 0 }
    }

    /// Finishes setting up a screen `notif_start_screen` made.
    private init(started lookup: (String) -> String?, unicode: Bool) {
        self.unicode = unicode
        if lookup("ESCDELAY") == nil { set_escdelay(25) }
        notif_install_signal_handlers()
        raw()
        noecho()
        nonl()
        keypad(notif_stdscr(), true)
        intrflush(notif_stdscr(), false)
        notif_enable_mouse()
        let noColor = !(lookup("NO_COLOR") ?? "").isEmpty
        palette = Palette(useColor: !noColor)
        curs_set(1)
    }

    /// ncurses drawing into /dev/null at a fixed size (tests read the screen back).
    public init?(headlessTerm term: String, size: TerminalSize, useColor: Bool = true) {
        unicode = notif_setup_locale() != 0
        guard notif_start_headless(term, Int32(size.height), Int32(size.width)) != 0 else { return nil }
        palette = Palette(useColor: useColor)
    }

    /// What ncurses holds for each row now, trailing spaces trimmed.
    public func screenText() -> [String] {
        (0..<Int(notif_lines())).map { screenText(row: $0, from: 0) }
    }

    /// What ncurses holds on `row` from screen cell `column` on, trailing spaces trimmed.
    public func screenText(row: Int, from column: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 8192)
        notif_row_text_from(Int32(row), Int32(column), &buffer, Int32(buffer.count))
        var line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The attributes ncurses holds at a cell.
    public func attributes(row: Int, column: Int) -> attr_t { notif_cell_attributes(Int32(row), Int32(column)) }

    public var cursorPosition: (row: Int, column: Int) {
        var row: Int32 = 0, column: Int32 = 0
        notif_cursor(&row, &column)
        return (Int(row), Int(column))
    }

    /// The attributes the painter uses for a role.
    public func attributes(for role: Role) -> attr_t { palette.attributes(for: role) }

    deinit { restore() }

    public var size: TerminalSize {
        TerminalSize(width: Int(notif_cols()), height: Int(notif_lines()))
    }

    /// Draws the canvas: erase and redraw in memory, then ncurses sends only what changed.
    public func paint(_ canvas: Canvas) {
        let screen = notif_stdscr()
        werase(screen)
        var run: [wchar_t] = []
        run.reserveCapacity(canvas.width)
        let blank = wchar_t(UInt8(ascii: " "))
        let rows = min(canvas.height, Int(notif_lines()))
        for row in 0..<rows {
            var col = 0
            while col < canvas.width {
                let role = canvas[row, col].role
                let start = col
                run.removeAll(keepingCapacity: true)
                while col < canvas.width && canvas[row, col].role == role {
                    let cell = canvas[row, col]
                    if !cell.continuation { run.append(wchar_t(bitPattern: cell.scalar.value)) }
                    col += 1
                }
                // The bottom-right cell would scroll the screen; leave it out.
                if row == canvas.height - 1 && col == canvas.width && !run.isEmpty { run.removeLast() }
                let attributes = palette.attributes(for: role)
                // werase left blanks in plain attributes: such a run is already there.
                if attributes == notif_a_normal() && run.allSatisfy({ $0 == blank }) { continue }
                wattrset(screen, Int32(bitPattern: attributes))
                _ = mvwaddnwstr(screen, Int32(row), Int32(start), run, Int32(run.count))
            }
        }
        wattrset(screen, Int32(bitPattern: notif_a_normal()))
        if let cursor = canvas.cursor {
            curs_set(1)
            wmove(screen, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(screen)
    }

    /// Blocks for the next input: a key, a click, a resize, a signal, a wake descriptor that
    /// became readable (a worker's result, changed files), or the end of input. No timers: an idle page
    /// sleeps in poll and uses no CPU.
    public func read() -> TerminalInput {
        while true {
            if let sig = pendingSignal { return .signal(sig) }
            if notif_pending_suspend() != 0 { return .suspend }
            // Keys ncurses already holds come first; then sleep in poll until the terminal or a
            // wake descriptor has something.
            wtimeout(notif_stdscr(), 0)
            var value: wint_t = 0
            let result = wget_wch(notif_stdscr(), &value)
            if let sig = pendingSignal { return .signal(sig) }
            switch result {
            case OK:
                idleReadable = 0
                if value == 27 { return afterEscape() }
                return KeyDecoder.character(UInt32(value)).map { .action(.key($0)) } ?? .nothing
            case KEY_CODE_YES:
                idleReadable = 0
                let code = Int32(value)
                if code == KEY_RESIZE { return .action(.resize(size)) }
                if code == KEY_MOUSE {
                    var row: Int32 = 0, column: Int32 = 0
                    return notif_read_click(&row, &column) != 0 ? .action(.click(row: Int(row), column: Int(column))) : .nothing
                }
                return .action(.key(KeyDecoder.functionKey(code)))
            default:
                break
            }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)] + wakeFDs.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 { continue } // EINTR: a signal (quit, suspend, or SIGWINCH for ncurses)
            if let woken = fds.dropFirst().first(where: { $0.revents != 0 }) { return .woken(woken.fd) }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .endOfInput }
            // Readable, so ncurses decodes it on the next turn. Readable again and again with
            // nothing decoded means a terminal that only ever reads empty: end, never spin.
            idleReadable = fds[0].revents & Int16(POLLIN) != 0 ? idleReadable + 1 : 0
            if idleReadable > 100 { return .endOfInput }
        }
    }

    /// After an ESC: alone (nothing followed within the escape delay) it is Escape. Followed by
    /// a character it is Alt (Meta) with that character, never Escape. A CSI (`ESC [` parameters,
    /// final byte) or SS3 (`ESC O` x) sequence ncurses matched to no key is a key this terminal's
    /// entry does not name: read and dropped.
    private func afterEscape() -> TerminalInput {
        // The next character already waiting (ncurses read it within the escape delay).
        func waiting() -> (value: wint_t, isKey: Bool)? {
            var next: wint_t = 0
            switch wget_wch(notif_stdscr(), &next) {
            case OK: return (next, false)
            case KEY_CODE_YES: return (next, true)
            default: return nil
            }
        }
        guard let next = waiting() else { return .action(.key(.escape)) }
        if next.isKey {
            // Alt with an arrow or a function key: nothing the page does.
            if Int32(next.value) == KEY_RESIZE { return .action(.resize(size)) }
            return .nothing
        }
        switch next.value {
        case wint_t(UInt8(ascii: "[")):
            // Parameter and intermediate bytes (0x20–0x3F), up to the final byte (0x40–0x7E).
            for _ in 0..<32 {
                guard let byte = waiting(), !byte.isKey, (0x20...0x3F).contains(byte.value) else { break }
            }
            return .nothing
        case wint_t(UInt8(ascii: "O")):
            _ = waiting()
            return .nothing
        default:
            guard next.value >= 32, next.value != 127, let scalar = Unicode.Scalar(UInt32(next.value)) else {
                // Alt with Enter, Tab, Esc or another control: nothing the page does.
                return .nothing
            }
            return .action(.key(.alt(Character(scalar))))
        }
    }

    /// Also wakes `read()` when `fd` becomes readable (`.woken(fd)`); the caller drains it.
    public func wake(on fd: Int32) {
        if !wakeFDs.contains(fd) { wakeFDs.append(fd) }
    }

    private var pendingSignal: Int32? {
        let sig = notif_pending_signal()
        return sig == 0 ? nil : sig
    }

    private var wakeFDs: [Int32] = []
    private var idleReadable = 0
    /// Gives the terminal back (cooked mode, echo, cursor, main screen; a frame drawn on a
    /// terminal without an alternate screen is cleared). Safe to call twice.
    public func restore() {
        guard active else { return }
        active = false
        notif_restore_terminal()
    }

    /// Gives the terminal to `body`, which runs a program on it (an editor), and takes it back
    /// after, with the next paint drawing everything. Returns the size then.
    public func lend(_ body: () -> Void) -> TerminalSize {
        guard active else {
            body()
            return size
        }
        notif_leave_screen()
        body()
        notif_resume_screen()
        var rows: Int32 = 0, columns: Int32 = 0
        if notif_terminal_size(&rows, &columns) != 0 && (rows != notif_lines() || columns != notif_cols()) {
            resizeterm(rows, columns)
        }
        return size
    }

    /// Gives the terminal back and stops the process (Ctrl-Z, SIGTSTP); returns once continued
    /// (`fg`), with the next paint drawing everything again. Returns the size then.
    public func suspend() -> TerminalSize {
        guard active else { return size }
        notif_suspend()
        // The window may have changed while stopped.
        var rows: Int32 = 0, columns: Int32 = 0
        if notif_terminal_size(&rows, &columns) != 0 && (rows != notif_lines() || columns != notif_cols()) {
            resizeterm(rows, columns)
        }
        return size
    }

    /// Restores the terminal and ends the process the way `signal` asks (so the parent sees it).
    public func die(by signal: Int32) -> Never {
        restore()
        notif_die_by_signal(signal)
        fatalError("unreachable")
    }
}

extension ColumnWidths {
    /// The C library's `wcwidth` in the current locale: what ncurses places characters by, so
    /// the page's columns and the terminal's agree (emoji and symbols included).
    public static let system = ColumnWidths { Int(notif_wcwidth($0.value)) }
}
