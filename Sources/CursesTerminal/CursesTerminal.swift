import CNcursesw
import Glibc
import SettingsUI

/// Why the terminal cannot host the page.
public struct TerminalProblem: Error, Equatable, Sendable {
    public let message: String
}

/// What the key loop reads next.
public enum TerminalInput: Equatable, Sendable {
    case action(Action)
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT arrived: restore the terminal and end.
    case signal(Int32)
    /// stdin closed (or cannot be read): nothing more will come.
    case endOfInput
    /// Nothing the page understands (e.g. a mouse move); read again.
    case nothing
    /// A watched directory changed (another process saved the settings).
    case filesChanged
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
        let message: String
        switch Int(notif_start_screen()) {
        case Int(NOTIF_SCREEN_OK): return .success(CursesTerminal(started: lookup, unicode: unicode))
        case Int(NOTIF_NO_TTY): message = "\(purpose) needs a terminal: stdin and stdout must be a tty"
        case Int(NOTIF_NO_TERM): message = "TERM is not set, so the terminal type is unknown"
        case Int(NOTIF_UNKNOWN_TERM): message = "the terminal type in TERM is not known to this system (no terminfo entry)"
        default: message = "this terminal (TERM) cannot move the cursor (for example TERM=dumb)"
        }
        return .failure(TerminalProblem(message: message))
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
        var buffer = [CChar](repeating: 0, count: 8192)
        return (0..<Int(notif_lines())).map { row in
            notif_row_text(Int32(row), &buffer, Int32(buffer.count))
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            var line = String(decoding: bytes, as: UTF8.self)
            while line.last == " " { line.removeLast() }
            return line
        }
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

    /// Blocks for the next input: a key, a click, a resize, a quit signal or the end of input.
    public func read() -> TerminalInput {
        while true {
            if let sig = pendingSignal { return .signal(sig) }
            // Keys ncurses already holds come first; then sleep in poll until the terminal or a
            // watched directory has something (no timers: an idle page uses no CPU).
            wtimeout(notif_stdscr(), 0)
            var value: wint_t = 0
            let result = wget_wch(notif_stdscr(), &value)
            if let sig = pendingSignal { return .signal(sig) }
            switch result {
            case OK:
                idleReadable = 0
                if value == 27 && dropUnknownSequence() { return .nothing }
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
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            if watchFD >= 0 { fds.append(pollfd(fd: watchFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 { continue } // EINTR: a signal (quit, or SIGWINCH for ncurses)
            if fds.count > 1 && fds[1].revents != 0 {
                drainWatch()
                return .filesChanged
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .endOfInput }
            // Readable, so ncurses decodes it on the next turn. Readable again and again with
            // nothing decoded means a terminal that only ever reads empty: end, never spin.
            idleReadable = fds[0].revents & Int16(POLLIN) != 0 ? idleReadable + 1 : 0
            if idleReadable > 100 { return .endOfInput }
        }
    }

    /// After an ESC that ncurses matched to no key: when a CSI (`ESC [` parameters, final byte)
    /// or SS3 (`ESC O` x) sequence follows, it is a key this terminal's entry does not name, so
    /// it is read and dropped (true) rather than taken for Escape, which would close the page.
    /// Anything else is put back and the ESC stays a press of Escape (false).
    private func dropUnknownSequence() -> Bool {
        // The next character already waiting; a decoded key (KEY_CODE_YES) is put back whole.
        func waiting() -> wint_t? {
            var next: wint_t = 0
            switch wget_wch(notif_stdscr(), &next) {
            case OK: return next
            case KEY_CODE_YES: ungetch(Int32(next)); return nil
            default: return nil
            }
        }
        switch waiting() {
        case wint_t(UInt8(ascii: "["))?:
            // Parameter and intermediate bytes (0x20–0x3F), up to the final byte (0x40–0x7E).
            for _ in 0..<32 {
                guard let next = waiting(), (0x20...0x3F).contains(next) else { break }
            }
            return true
        case wint_t(UInt8(ascii: "O"))?:
            _ = waiting()
            return true
        case let other?:
            unget_wch(wchar_t(bitPattern: other))
            return false
        case nil:
            return false
        }
    }

    /// Watches `directory` (settings written by another process show up as `.filesChanged`).
    @discardableResult
    public func watch(directory: String) -> Bool {
        if watchFD < 0 { watchFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        guard watchFD >= 0 else { return false }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_CREATE)
        return inotify_add_watch(watchFD, directory, mask) >= 0
    }

    private var watchFD: Int32 = -1
    private var idleReadable = 0

    private func drainWatch() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Glibc.read(watchFD, &buffer, buffer.count) > 0 {}
    }

    private var pendingSignal: Int32? {
        let sig = notif_pending_signal()
        return sig == 0 ? nil : sig
    }

    /// Gives the terminal back (cooked mode, echo, cursor, main screen). Safe to call twice.
    public func restore() {
        guard active else { return }
        active = false
        curs_set(1)
        endwin()
    }

    /// Restores the terminal and ends the process the way `signal` asks (so the parent sees it).
    public func die(by signal: Int32) -> Never {
        restore()
        notif_die_by_signal(signal)
        fatalError("unreachable")
    }
}
