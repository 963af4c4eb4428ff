import Glibc
import Storage

/// A program started to be read line by line while it runs (the launcher of the reminder's
/// waiter, whose first line says whether the notification was shown). Its own process group;
/// stdin /dev/null; killed with its group when `stop` is called.
public final class StreamingChild {
    public let pid: pid_t
    private var stdoutFD: Int32
    private var stderrFD: Int32
    private var pending: [UInt8] = []
    private var errors: [UInt8] = []
    private var status: Int32?

    /// What the next read found.
    public enum Read: Equatable, Sendable {
        case line(String)
        /// The program closed its output: ended, with a summary of how (`exit status 1: …`).
        case ended(String)
        case timedOut
    }

    /// Starts `argv` (looked up in PATH) with `environment` changes.
    public init(_ argv: [String], environment: [String: String?]) throws(SpawnError) {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard SpawnProcessRunner.makePipe(&out) else { throw SpawnError(program: argv[0], code: errno) }
        guard SpawnProcessRunner.makePipe(&err) else {
            out.forEach { close($0) }
            throw SpawnError(program: argv[0], code: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        let (rc, pid) = SpawnProcessRunner.launch(argv, actions: &actions, environment: environment)
        close(out[1]); close(err[1])
        guard rc == 0 else {
            close(out[0]); close(err[0])
            throw SpawnError(program: argv[0], code: rc)
        }
        self.pid = pid
        stdoutFD = out[0]
        stderrFD = err[0]
    }

    deinit {
        stop()
    }

    /// The next line of its output, waiting until `deadline` (monotonic seconds).
    public func nextLine(until deadline: Double) -> Read {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line)
            }
            if stdoutFD < 0 {
                if !pending.isEmpty {
                    defer { pending.removeAll() }
                    return .line(String(decoding: pending, as: UTF8.self))
                }
                return .ended(endSummary(deadline: deadline))
            }
            let remaining = deadline - SystemClock.monotonicNow()
            if remaining <= 0 { return .timedOut }
            var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)]
            if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 86_400) * 1000) + 1)
            if ready < 0 && errno != EINTR { return .timedOut }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if entry.fd == stdoutFD { pending += buffer[0..<count] } else if errors.count < 65536 { errors += buffer[0..<count] }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    if entry.fd == stdoutFD { stdoutFD = -1 } else { stderrFD = -1 }
                }
            }
        }
    }

    /// Kills the program and everything it started, and reaps it.
    public func stop() {
        if status == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            reap(block: true)
        }
        for fd in [stdoutFD, stderrFD] where fd >= 0 { close(fd) }
        stdoutFD = -1
        stderrFD = -1
    }

    /// How it ended, once its output closed: its status (waited for until `deadline`) and stderr.
    private func endSummary(deadline: Double) -> String {
        while status == nil && SystemClock.monotonicNow() < deadline {
            reap(block: false)
            if status == nil { usleep(5_000) }
        }
        guard let status else { return "closed its output but did not exit" }
        // The rest of stderr, now that it has ended (without waiting for a helper that holds it).
        var buffer = [UInt8](repeating: 0, count: 4096)
        if stderrFD >= 0 { _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK) }
        while stderrFD >= 0 {
            let count = buffer.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
            if count > 0 && errors.count < 65536 { errors += buffer[0..<count]; continue }
            close(stderrFD)
            stderrFD = -1
        }
        return ProcessResult(waitStatus: status, stderr: errors).failureSummary
    }

    private func reap(block: Bool) {
        var raw: Int32 = 0
        while true {
            let rc = waitpid(pid, &raw, block ? 0 : WNOHANG)
            if rc == pid { status = raw; return }
            if rc < 0 && errno == EINTR { continue }
            if rc < 0 { status = 0 }   // already reaped elsewhere: nothing more to learn
            return
        }
    }
}
