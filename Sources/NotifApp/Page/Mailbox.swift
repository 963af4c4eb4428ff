import Glibc
import SettingsUI
import Synchronization

/// Where workers leave the actions their effects produced for the key loop: a list under a
/// lock, and a pipe the key reader waits on beside stdin, so a result wakes it at once.
final class Mailbox: Sendable {
    private let posted = Mutex<[Action]>([])
    /// The read end (the key reader polls it) and the write end (one byte per post).
    let readFD: Int32
    private let writeFD: Int32

    init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func post(_ action: Action) {
        posted.withLock { $0.append(action) }
        var byte: UInt8 = 1
        // A full pipe already wakes the reader: nothing is lost, the list holds the actions.
        _ = write(writeFD, &byte, 1)
    }

    /// Every action posted so far, oldest first.
    func take() -> [Action] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readFD, &buffer, buffer.count) > 0 {}
        return posted.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
    }
}
