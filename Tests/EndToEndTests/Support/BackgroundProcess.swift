import Foundation
import TestSupport
import LinuxGateway

/// A program left running in the background (a systemd user manager, a cron daemon), started
/// with posix_spawn and reaped with `waitpid(WNOHANG)`, its output appended to a file.
///
/// Not Foundation's `Process`: that one learns that a child ended when a socket the child
/// inherited closes, then waits for it on the one thread that reaps every `Process`. systemd
/// closes inherited descriptors as it starts, so that thread blocked in `waitpid` until the
/// manager really ended, and every other `Process` of the test run (a `notif daemon`'s, say)
/// was never seen to end. The child here inherits no descriptor beyond 0, 1 and 2.
final class BackgroundProcess {
    let pid: pid_t
    private var exitStatus: Int32?

    init(_ argv: [String], environment: [String: String], output path: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        Self.closeFrom(3, in: &actions)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = withSpawnAttributes { posix_spawn(&pid, argv[0], &actions, &$0, cArgs, cEnv) }
        guard rc == 0 else { throw E2EFailure("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare: the child closes every descriptor from `first` on.
    private static func closeFrom(_ first: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, first)
    }

    /// Kills it (and anything else in its process group) if it still runs, and reaps it.
    deinit {
        if isRunning {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    var isRunning: Bool {
        if exitStatus == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
        }
        return exitStatus == nil
    }

    /// Its exit status once it has ended by exiting (nil while it runs, or when a signal ended it).
    var exitCode: Int32? {
        guard !isRunning, let status = exitStatus, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// Polls until it ended, for at most `seconds`; whether it did.
    func waitForExit(_ seconds: TimeInterval) -> Bool {
        waitUntil(seconds) { !isRunning }
    }

    /// The name the kernel shows for it now (`/proc/PID/comm`): which program it has become.
    var command: String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
