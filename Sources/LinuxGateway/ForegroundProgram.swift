import Glibc

/// A program run on this terminal in the foreground (an editor), waited for as `system()` waits:
/// it shares the terminal and the process group, starts with every signal's default action and
/// nothing blocked, and while it runs this process ignores Ctrl-C and Ctrl-\, so they reach the
/// program alone. No deadline: a person is using it.
public enum ForegroundProgram {
    /// How the program ended.
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// It could not be started (the reason).
        case notStarted(String)
    }

    /// Runs `argv` (looked up on PATH) and waits for it.
    public static func run(_ argv: [String]) -> Ending {
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
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var changes: [String: String?] = [:]
        for name in SpawnProcessRunner.withheldVariables { changes[name] = .some(nil) }
        let cEnv = SpawnProcessRunner.environment(applying: changes)
        defer { cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], nil, &attributes, cArgs, cEnv)
        guard rc == 0 else { return .notStarted(String(cString: strerror(rc))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .notStarted(String(cString: strerror(errno))) }
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
