import Foundation
import TestSupport

/// The real binary in a real terminal: a private tmux server (own socket dir and config) with
/// one pane running a command, driven with send-keys and read with capture-pane.
final class TmuxPane {
    let socket: String
    let directory: String
    private let environment: [String: String]

    /// Runs `command` (a shell command line) in an 80×24 pane. When it exits the pane prints
    /// `[exit=N]` and the terminal's `stty -a`, then stays open for inspection.
    init(_ command: String, width: Int = 80, height: Int = 24) throws {
        directory = "/tmp/notif-tmux-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = "s"
        environment = ["TMUX_TMPDIR": directory, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": directory, "LANG": "C.UTF-8"]
        let script = "\(command); echo \"[exit=$?]\"; stty -a | tr '\\n' ' '; echo; echo '[stty-done]'; sleep 600"
        let result = try run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh", "-c", script],
                             environment: environment)
        guard result.status == 0 else { throw E2EFailure("tmux new-session: \(result)") }
    }

    deinit {
        _ = try? run(["tmux", "-L", socket, "kill-server"], environment: environment)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func tmux(_ args: [String]) throws -> RunResult {
        try run(["tmux", "-L", socket] + args, environment: environment)
    }

    /// Sends tmux key names (`Down`, `Enter`, `Escape`, `Space`, `C-c`, `q`).
    func send(_ keys: String...) throws {
        for key in keys { _ = try tmux(["send-keys", "-t", "0", key]) }
    }

    /// Sends several tmux key names in one call.
    func send(keys: [String]) throws {
        _ = try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// A left click at a 0-based cell, as the terminal reports it: press then release, in the
    /// X10 encoding tmux-256color's `kmous` names (`ESC [ M` and three bytes of 32 + value).
    func click(row: Int, column: Int) throws {
        precondition(row < 94 && column < 94, "X10 mouse reports stop at 94")
        for button in [0, 3] {
            try send(bytes: [0x1b, 0x5b, 0x4d, UInt8(32 + button), UInt8(33 + column), UInt8(33 + row)])
        }
    }

    /// Sends raw bytes, as a terminal would (escape sequences tmux has no name for).
    func send(bytes: [UInt8]) throws {
        _ = try tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// Where `text` first shows on the screen (0-based row and column), if it does.
    func position(of text: String) throws -> (row: Int, column: Int)? {
        for (row, line) in try capture().components(separatedBy: "\n").enumerated() {
            if let range = line.range(of: text) { return (row, line.distance(from: line.startIndex, to: range.lowerBound)) }
        }
        return nil
    }

    func capture(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"] + (colors ? ["-e"] : [])).stdout
    }

    /// Polls the screen every 20 ms until `text` shows, or fails with the screen after `seconds`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) throws -> String {
        var screen = ""
        let found = try waitUntil(seconds) {
            screen = try capture()
            return screen.contains(text)
        }
        guard found else { throw E2EFailure("\"\(text)\" did not appear in \(seconds) s; the screen:\n\(screen)") }
        return screen
    }

    /// Polls until a screen line containing `marker` satisfies `condition`; returns that line.
    @discardableResult
    func waitForLine(containing marker: String, seconds: Double = 10, _ condition: (String) -> Bool) throws -> String {
        var screen = ""
        var match = ""
        let found = try waitUntil(seconds) {
            screen = try capture()
            match = screen.split(separator: "\n").map(String.init).first { $0.contains(marker) } ?? ""
            return !match.isEmpty && condition(match)
        }
        guard found else { throw E2EFailure("no line with \"\(marker)\" as expected in \(seconds) s; the screen:\n\(screen)") }
        return match
    }

    /// Polls until `text` is gone.
    func waitForAbsence(_ text: String, seconds: Double = 10) throws {
        var screen = ""
        let gone = try waitUntil(seconds) {
            screen = try capture()
            return !screen.contains(text)
        }
        guard gone else { throw E2EFailure("\"\(text)\" stayed on screen; the screen:\n\(screen)") }
    }

    func resize(width: Int, height: Int) throws {
        _ = try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The exit status printed when the command ended, and the terminal's `stty -a` after it.
    func finished(seconds: Double = 10) throws -> (status: Int, stty: String) {
        let screen = try waitFor("[stty-done]", seconds: seconds)
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        guard let range = joined.range(of: "[exit="), let end = joined[range.upperBound...].firstIndex(of: "]"),
              let status = Int(joined[range.upperBound..<end]) else {
            throw E2EFailure("no exit status on screen:\n\(screen)")
        }
        return (status, String(joined[end...]))
    }

    /// Whether the pane's cursor is shown (ncurses hides it with `civis`; notif must show it again).
    func cursorVisible() throws -> Bool {
        try tmux(["display-message", "-p", "-t", "0", "#{cursor_flag}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// The pane's terminal modes a full-screen program turns on and must turn off again: the
    /// alternate screen, mouse reporting, the keypad's application modes, and whether the cursor shows.
    func modes() throws -> [String: String] {
        let names = ["alternate_on", "mouse_any_flag", "mouse_standard_flag", "keypad_cursor_flag", "keypad_flag", "cursor_flag"]
        let format = names.map { "#{\($0)}" }.joined(separator: " ")
        let values = try tmux(["display-message", "-p", "-t", "0", format]).stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        return Dictionary(uniqueKeysWithValues: zip(names, values))
    }

    /// Closes the pane (its program gets SIGHUP and loses the terminal).
    func killPane() throws {
        _ = try tmux(["kill-pane", "-t", "0"])
    }

    /// The pid of the program the pane's shell started (found by name, among its children or,
    /// for a program started from an interactive shell in the pane, their children).
    func pid(of name: String) throws -> Int32 {
        let pane = try tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var pid: Int32?
        let env = ["PATH": "/usr/bin:/bin"]
        _ = waitUntil(5) {
            var parents = [pane]
            for _ in 0..<3 where pid == nil {
                for parent in parents where pid == nil {
                    let named = (try? run(["pgrep", "-P", parent, "-x", name], environment: env).stdout) ?? ""
                    pid = named.split(separator: "\n").first.flatMap { Int32($0) }
                }
                parents = parents.flatMap { parent in
                    ((try? run(["pgrep", "-P", parent], environment: env).stdout) ?? "").split(separator: "\n").map(String.init)
                }
            }
            return pid != nil
        }
        guard let pid else { throw E2EFailure("no \(name) under pane \(pane)") }
        return pid
    }
}

/// `stty -a` shows a terminal people can type in again.
func isSane(_ stty: String) -> Bool {
    let words = Set(stty.split(whereSeparator: { $0 == " " || $0 == ";" }).map(String.init))
    return words.contains("icanon") && words.contains("echo") && !words.contains("-icanon") && !words.contains("-echo")
}

/// A shell command line running the built notif with an exact environment.
func notifCommand(_ args: [String] = [], env: [String: String], binary: String = NotifBinary.path, asUser user: String? = nil) -> String {
    let assignments = env.keys.sorted().map { "\($0)=\(shellQuote(env[$0]!))" }.joined(separator: " ")
    let prefix = user.map { "runuser -u \($0) -- " } ?? ""
    return "\(prefix)env -i \(assignments) \(shellQuote(binary))" + args.map { " " + shellQuote($0) }.joined()
}

func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
