import CLinuxEvents
import Synchronization
import Glibc
import Storage

/// Runs programs with posix_spawn: pipes for the three standard streams, its own process group
/// (so a timeout kills helpers it started too), default signal handling, and a hard deadline.
public struct SpawnProcessRunner: ProcessRunner {
    /// Output beyond this many bytes per stream is dropped (the child is not blocked).
    public static let outputLimit = 16 << 20
    /// Where `notif account login` may find the auth token.
    public static let authTokenVariable = "NOTIF_AUTH_TOKEN"
    /// Secrets notif may be given in its environment; no program it starts inherits them.
    public static let withheldVariables = [authTokenVariable]

    public init() {}

    public func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        try spawn(argv, input: input, stdinFile: nil, environment: environment, timeout: timeout)
    }

    public func run(_ argv: [String], stdinFile path: String, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        try spawn(argv, input: nil, stdinFile: path, environment: environment, timeout: timeout)
    }

    private func spawn(_ argv: [String], input: [UInt8]?, stdinFile: String?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        precondition(!argv.isEmpty)
        // A child that exits before reading all its input must not kill this process with
        // SIGPIPE (the write then fails with EPIPE). Children get the default action back.
        if input != nil { signal(SIGPIPE, SIG_IGN) }
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&inPipe) else { throw SpawnError(program: argv[0], code: errno) }
        guard Self.makePipe(&outPipe) else {
            closeAll(inPipe)
            throw SpawnError(program: argv[0], code: errno)
        }
        guard Self.makePipe(&errPipe) else {
            closeAll(inPipe + outPipe)
            throw SpawnError(program: argv[0], code: errno)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, stdinFile ?? "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        Self.passStandardStreamsOnly(&actions)
        // Recorded while it runs, so a page that quits can end it and its whole group.
        // The retry for a busy program waits outside ChildProcesses' lock, so other starts and a
        // quitting page never wait behind it.
        let (rc, pid) = Self.retryingWhileBusy {
            ChildProcesses.start(argv[0]) { Self.launchOnce(argv, actions: &actions, environment: environment) }
        }
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        if rc != 0 {
            closeAll([inPipe[1], outPipe[0], errPipe[0]])
            throw SpawnError(program: argv[0], code: rc)
        }
        defer { ChildProcesses.finished(pid) }
        if input == nil { close(inPipe[1]) }
        return collect(pid: pid, stdinFD: input == nil ? -1 : inPipe[1], stdoutFD: outPipe[0], stderrFD: errPipe[0],
                       input: input ?? [], timeout: timeout)
    }

    /// How many times a start has waited for a busy program (read by tests).
    static let busyRetries = Atomic<Int>(0)

    /// Starts `argv` as `launchOnce` does, trying again for about 1.3 s while the program is busy.
    static func launch(_ argv: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String?],
                       ownGroup: Bool = true) -> (Int32, pid_t) {
        passStandardStreamsOnly(&actions)
        return retryingWhileBusy { launchOnce(argv, actions: &actions, environment: environment, ownGroup: ownGroup) }
    }

    /// Ends `actions` (which set up stdin, stdout and stderr) by closing every other descriptor in
    /// the child: one this process inherited or opened without CLOEXEC (a caller's lock file, a
    /// scheduler's output pipe, a socket) never reaches a program notif starts, least of all the
    /// reminder's waiter, which outlives the run (cron waits for its job's pipe to close).
    static func passStandardStreamsOnly(_ actions: inout posix_spawn_file_actions_t) {
        _ = notif_spawn_close_from(&actions, 3)
    }

    /// Runs `attempt` again while it fails with "Text file busy": the program is open for writing
    /// at this instant (being installed, or held by another process between its fork and exec).
    /// That passes; the attempts stop after about 1.3 s.
    static func retryingWhileBusy(_ attempt: () -> (code: Int32, pid: pid_t)) -> (Int32, pid_t) {
        var started = attempt()
        var wait: useconds_t = 5_000
        for _ in 0..<8 where started.code == ETXTBSY {
            busyRetries.add(1, ordering: .relaxed)
            usleep(wait)
            wait *= 2
            started = attempt()
        }
        return started
    }

    /// Starts `argv` (looked up on PATH) in its own process group (unless `ownGroup` is false) with
    /// default signals, with `actions` for its descriptors and this process's environment changed by
    /// `environment`, the variables notif never passes on withheld. One attempt: posix_spawnp's
    /// result and the pid.
    static func launchOnce(_ argv: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String?],
                           ownGroup: Bool = true) -> (code: Int32, pid: pid_t) {
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var changes = environment
        for name in withheldVariables { changes.updateValue(nil, forKey: name) }
        let cEnv = Self.environment(applying: changes)
        defer { cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = withSpawnAttributes(ownGroup: ownGroup) { posix_spawnp(&pid, argv[0], &actions, &$0, cArgs, cEnv) }
        return (rc, pid)
    }

    private func collect(pid: pid_t, stdinFD: Int32, stdoutFD: Int32, stderrFD: Int32, input: [UInt8], timeout: Double) -> ProcessResult {
        var stdinFD = stdinFD, stdoutFD = stdoutFD, stderrFD = stderrFD
        if stdinFD >= 0 {
            _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
            if input.isEmpty { close(stdinFD); stdinFD = -1 }
        }
        var written = 0
        var out: [UInt8] = [], err: [UInt8] = []
        var status: Int32 = 0
        var reaped = false
        var timedOut = false
        let deadline = SystemClock.monotonicNow() + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)

        while stdoutFD >= 0 || stderrFD >= 0 || stdinFD >= 0 {
            var fds: [pollfd] = []
            if stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
            if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
            if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
            let remaining = deadline - SystemClock.monotonicNow()
            if remaining <= 0 { timedOut = true; break }
            // Wake now and then to notice a child that exited while a grandchild holds the pipes.
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 0.05) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            if ready == 0 {
                if waitpid(pid, &status, WNOHANG) == pid {
                    reaped = true
                    drain(stdoutFD, into: &out, buffer: &buffer)
                    drain(stderrFD, into: &err, buffer: &buffer)
                    break
                }
                continue
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == stdinFD {
                    let count = input.withUnsafeBytes { write(stdinFD, $0.baseAddress! + written, $0.count - written) }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN && errno != EINTR || written == input.count {
                        close(stdinFD); stdinFD = -1
                    }
                } else {
                    let isOut = entry.fd == stdoutFD
                    let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        if isOut { append(buffer[0..<count], to: &out) } else { append(buffer[0..<count], to: &err) }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        close(entry.fd)
                        if isOut { stdoutFD = -1 } else { stderrFD = -1 }
                    }
                }
            }
        }
        if timedOut {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        for fd in [stdinFD, stdoutFD, stderrFD] where fd >= 0 { close(fd) }
        if !reaped {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return ProcessResult(waitStatus: status, stdout: out, stderr: err, timedOut: timedOut)
    }

    private func drain(_ fd: Int32, into sink: inout [UInt8], buffer: inout [UInt8]) {
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            append(buffer[0..<count], to: &sink)
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>, to sink: inout [UInt8]) {
        let room = Self.outputLimit - sink.count
        if room > 0 { sink.append(contentsOf: bytes.prefix(room)) }
    }

    /// A pipe whose ends close on exec (the child gets only the dup2'd copies).
    static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { close(fd) }
    }

    /// The process environment with `changes` applied, as a NULL-terminated C array.
    static func environment(applying changes: [String: String?]) -> [UnsafeMutablePointer<CChar>?] {
        var result: [UnsafeMutablePointer<CChar>?] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if changes[name] == nil { result.append(strdup(text)) }
            cursor += 1
        }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let value { result.append(strdup(name + "=" + value)) }
        }
        result.append(nil)
        return result
    }
}
