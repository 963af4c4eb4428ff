import Glibc
import SharedLogic
import Storage

/// Starts a program that should go on without notif (a terminal with notif's page in it):
/// stdin and stdout /dev/null, stderr an unnamed file (read only when it fails), its own process
/// group, never killed by notif. It counts as started when it is still running after `settle`
/// seconds or has exited with status 0 (launchers like `gio launch` hand over and exit);
/// otherwise how it ended, in its own words, is the error.
public enum DetachedProgram {
    public static func start(_ argv: [String], environment: [String: String?], settle: Double = 1.5) -> Result<Void, GatewayError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var template = Array("/tmp/notif-launch-XXXXXX".utf8CString)
        let errors = mkstemp(&template)
        if errors >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(errors, F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, errors, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        defer { if errors >= 0 { close(errors) } }
        let (rc, pid) = SpawnProcessRunner.launch(argv, actions: &actions, environment: environment)
        guard rc == 0 else { return .failure(GatewayError(SpawnError(program: argv[0], code: rc).description)) }
        let deadline = SystemClock.monotonicNow() + settle
        var status: Int32 = 0
        while SystemClock.monotonicNow() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                var said = [UInt8](repeating: 0, count: errors >= 0 ? 4096 : 0)
                let count = errors >= 0 ? pread(errors, &said, said.count, 0) : 0
                let result = ProcessResult(waitStatus: status, stderr: Array(said.prefix(max(0, count))))
                if result.exitStatus == 0 { return .success(()) }
                return .failure(GatewayError("\(argv[0]) \(result.failureSummary)"))
            }
            usleep(20_000)
        }
        return .success(())
    }
}
