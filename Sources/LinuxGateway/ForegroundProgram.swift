import CLinuxEvents
import Glibc
import Storage

/// A program run on this terminal in the foreground (an editor), waited for as `system()` waits:
/// it shares the terminal and the process group (and no descriptor beyond the three streams),
/// starts with every signal's default action and nothing blocked, and while it runs this process
/// ignores Ctrl-C and Ctrl-\, so they reach the program alone. SIGTERM and SIGHUP sent to this
/// process meanwhile are passed on to the program and what it started (a `sh -c` and its editor),
/// which is then waited for: nothing is left running on the terminal, and the terminal's modes
/// are put back. No deadline: a person is using it.
public enum ForegroundProgram {
    /// How the program ended.
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// It could not be started (the reason).
        case notStarted(String)
    }

    /// Runs `argv` (looked up on PATH) and waits for it. `passedOn`: the last SIGTERM or SIGHUP
    /// this process got while it ran (passed on to it), or nil.
    public static func run(_ argv: [String]) -> (ending: Ending, passedOn: Int32?) {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldInterrupt = sigaction(), oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInterrupt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInterrupt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        // The terminal's modes as they were: put back once the program ended (an editor ended
        // by a signal may leave them raw, so that nothing typed echoes).
        var modes = termios()
        let terminal = tcgetattr(STDIN_FILENO, &modes) == 0
        defer { if terminal { tcsetattr(STDIN_FILENO, TCSADRAIN, &modes) } }
        let signals = notif_end_signals_catch()
        defer { notif_end_signals_release() }
        // The terminal's three streams, and no other descriptor of this process.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let (rc, pid) = SpawnProcessRunner.launch(argv, actions: &actions, environment: [:], ownGroup: false)
        guard rc == 0 else { return (.notStarted(String(cString: strerror(rc))), nil) }
        let ended = notif_pidfd_open(pid)
        defer { if ended >= 0 { close(ended) } }
        var status: Int32 = 0, passedOn: Int32?
        // What the program started, once a signal was passed on to them: waited for too.
        var started: [Int32] = []
        defer {
            for fd in started {
                var one = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                while poll(&one, 1, -1) < 0 && errno == EINTR {}
                close(fd)
            }
        }
        // Wakes when the program ends or a signal comes (every 0.1 s without a pidfd).
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { return (.notStarted(String(cString: strerror(errno))), passedOn) }
            var fds = [pollfd(fd: ended, events: Int16(POLLIN), revents: 0), pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, ended >= 0 ? -1 : 100)
            var number: UInt8 = 0
            while signals >= 0 && read(signals, &number, 1) == 1 {
                passedOn = Int32(number)
                for process in tree(of: pid) {
                    if process != pid, case let fd = notif_pidfd_open(process), fd >= 0 { started.append(fd) }
                    kill(process, Int32(number))
                }
            }
        }
        let result = ProcessResult(waitStatus: status)
        return (result.signal.map(Ending.signalled) ?? .exited(result.exitStatus ?? 0), passedOn)
    }

    /// `pid` and every process below it, parents first (the kernel's list of each one's children).
    static func tree(of pid: pid_t) -> [pid_t] {
        var found = [pid], next = 0
        while next < found.count, found.count < 1000 {
            let parent = found[next]
            next += 1
            let children = (try? FileIO.read("/proc/\(parent)/task/\(parent)/children", limit: 1 << 16)) ?? nil
            found += String(decoding: children ?? [], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
        }
        return found
    }
}
