import CNcursesw
import Glibc
import SharedLogic
import Synchronization

/// Where commands write: stdout for results, stderr for warnings and errors (prefixed `notif:`).
struct Output {
    var out: (String) -> Void = { Output.write(1, $0) }
    var err: (String) -> Void = { Output.write(2, $0) }
    /// JSON documents: in a locale that is not UTF-8, characters beyond ASCII become `\uXXXX`
    /// escapes (the same document) rather than being changed.
    var outJSON: (String) -> Void = { Output.write(1, $0, json: true) }

    /// Writes nothing at all (`notif deliver --quiet`).
    static var silent: Output { Output(out: { _ in }, err: { _ in }) }

    func line(_ text: String = "") { out(text + "\n") }
    func json(_ text: String) { outJSON(text + "\n") }
    func warn(_ text: String) { err("notif: warning: " + text + "\n") }
    func error(_ text: String) { err("notif: " + text + "\n") }

    /// Whether the locale's character set is UTF-8 (LANG, LC_ALL, LC_CTYPE), read once, only
    /// when something beyond ASCII is to be written.
    static let localeIsUTF8: Bool = notif_setup_locale() != 0

    /// Writes `text` with every control character but newline and tab shown as an escape: the
    /// one way out to the terminal, so no server answer, file or other program's error text
    /// can send escape sequences (clipboard writes, a cleared screen, a window title). In a
    /// locale that is not UTF-8 the text is made ASCII, as the page draws it there.
    static func write(_ fd: Int32, _ text: String, json: Bool = false) {
        var safe = TerminalText.printable(text)
        if !safe.utf8.allSatisfy({ $0 < 0x80 }) && !localeIsUTF8 {
            safe = json ? ASCIIText.escapingJSON(safe) : ASCIIText.transliterate(safe)
        }
        var bytes = Array(safe.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if fd == 1 || fd == 2 { _ = failedWrite.compareExchange(expected: 0, desired: n < 0 ? errno : EIO, ordering: .relaxed) }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }

    /// The error of the first write to stdout or stderr that failed in this process (0: none):
    /// a full disk (`>/dev/full`), a closed pipe. The command then says so and exits 1.
    static let failedWrite = Atomic<Int32>(0)

    /// When a write failed: says so on stderr (if it can still be written) and gives exit 1,
    /// unless the command failed already (1) or was bad usage (2): that code stays. A reader
    /// that went away (`notif history | head -1`) wanted no more: that is no failure, and
    /// nothing is said (whether the reader left before the last line is a matter of timing).
    static func checkWrites(_ code: Int32) -> Int32 {
        let failure = failedWrite.load(ordering: .relaxed)
        guard failure != 0, failure != EPIPE else { return code }
        let text = "notif: cannot write the output: \(String(cString: strerror(failure)))\n"
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        return code == ExitCode.success.rawValue ? ExitCode.failure.rawValue : code
    }
}

/// Process exit codes: 0 success, 1 failure, 2 bad usage.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}
