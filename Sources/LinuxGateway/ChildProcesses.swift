import Glibc
import Synchronization

/// The programs notif has started and not yet reaped, each the leader of its own process group.
/// A page that quits while `crontab`, `systemctl` or `curl` hangs ends each of
/// them with everything they started, and starts nothing more.
public enum ChildProcesses {
    private struct Groups {
        /// Each running child by pid, with the program's name.
        var leaders: [pid_t: String] = [:]
        var closed = false
    }

    private static let groups = Mutex(Groups())

    /// Runs `spawn` (which returns 0 and sets the pid, or an errno) and records the child, unless
    /// `endAll` was called: then nothing starts and the answer is ECANCELED.
    static func start(_ program: String, _ spawn: () -> (code: Int32, pid: pid_t)) -> (code: Int32, pid: pid_t) {
        groups.withLock { state in
            guard !state.closed else { return (ECANCELED, 0) }
            let started = spawn()
            if started.code == 0 { state.leaders[started.pid] = String(program.split(separator: "/").last ?? "") }
            return started
        }
    }

    /// The child was reaped.
    static func finished(_ pid: pid_t) {
        _ = groups.withLock { $0.leaders.removeValue(forKey: pid) }
    }

    /// How many started programs are still running.
    public static var running: Int { groups.withLock { $0.leaders.count } }

    /// Kills every running child's whole process group (SIGKILL) and refuses to start more.
    /// Returns the names of the programs it ended.
    @discardableResult
    public static func endAll() -> [String] {
        groups.withLock { state in
            state.closed = true
            for leader in state.leaders.keys {
                kill(-leader, SIGKILL)
                kill(leader, SIGKILL)
            }
            return state.leaders.values.sorted()
        }
    }
}
