import Foundation

/// Writes an executable file for a test (a fake tool, a script a scheduler runs) through a
/// close-on-exec descriptor, then makes it executable. A plain write leaves the descriptor open
/// in any program another test starts at that instant; a long-lived one (a tmux server) keeps the
/// file "busy", and running it fails with ETXTBSY for as long as that program lives.
public func writeProgram(_ text: String, to path: String, mode: mode_t = 0o755) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw ProgramFileError(path: path, code: errno) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { let code = errno; close(fd); throw ProgramFileError(path: path, code: code) }
        written += n
    }
    close(fd)
    chmod(path, mode)
}

/// A test program could not be written.
public struct ProgramFileError: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
