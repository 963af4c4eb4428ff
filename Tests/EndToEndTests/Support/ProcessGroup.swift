import Foundation
import LinuxGateway

/// A background program in a process group of its own, started with every signal's default
/// action and nothing blocked (Foundation's Process hands children the test thread's mask,
/// in which SIGTERM is blocked), killed with its whole group and reaped when stopped.
final class ProcessGroup {
    let pid: pid_t
    private var reaped = false

    init(_ argv: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let cEnv: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/sbin:/usr/bin:/sbin:/bin"), nil]
        defer { cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = withSpawnAttributes { posix_spawn(&pid, cArgs[0]!, &actions, &$0, cArgs, cEnv) }
        guard rc == 0 else { throw E2EFailure("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    func stop() {
        kill(-pid, SIGKILL)
        guard !reaped else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
    }

    deinit { stop() }
}
