import Glibc
import Storage

/// The `notif daemon` processes of this user running now, by the environment each started with
/// (read from /proc/PID/environ, which only the process's own user may read): a daemon shows the
/// built-in schedule of its `XDG_STATE_HOME`, wherever that is, so `notif reset --entries` looks
/// there even when nothing else names it. A process counts only when its real and effective uid
/// are this user's (a setuid program another user started, `su` waiting at its prompt, keeps
/// euid 0 and would pass for root's) and it runs a notif program.
enum RunningDaemons {
    /// `HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` of each process of this user that runs
    /// notif with `daemon` among its arguments (callers confirm it holds notif's daemon lock).
    static func environments(procRoot: String = "/proc", uid: UInt32 = geteuid()) -> [[String: String]] {
        let own = exeFile(procRoot + "/self")
        return FileIO.processIDs(procRoot: procRoot).compactMap { pid -> [String: String]? in
            let dir = procRoot + "/" + pid
            guard let ids = realAndEffectiveUID(dir), ids.real == uid, ids.effective == uid, runsNotif(dir, own: own),
                  let cmdline = try? FileIO.read(dir + "/cmdline", limit: 64 << 10),
                  words(cmdline).dropFirst().contains("daemon"),
                  let environ = try? FileIO.read(dir + "/environ", limit: 1 << 20) else { return nil }
            var wanted: [String: String] = [:]
            for word in words(environ) {
                guard let equals = word.firstIndex(of: "=") else { continue }
                let name = String(word[..<equals])
                if ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"].contains(name) { wanted[name] = String(word[word.index(after: equals)...]) }
            }
            return wanted
        }
    }

    /// The real and effective uid on the `Uid:` line of /proc/PID/status.
    static func realAndEffectiveUID(_ dir: String) -> (real: UInt32, effective: UInt32)? {
        guard let bytes = try? FileIO.read(dir + "/status", limit: 64 << 10) else { return nil }
        return SchedulerProbe.uids(status: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether /proc/PID/exe is a notif program: the file this process runs, or one named `notif`.
    static func runsNotif(_ dir: String, own: (UInt64, UInt64)?) -> Bool {
        guard let link = FileIO.symlinkTarget(dir + "/exe") else { return false }
        if Posix.baseName(of: FileIO.executablePath(fromLink: link)) == "notif" { return true }
        guard let own, let file = exeFile(dir) else { return false }
        return file == own
    }

    /// The device and inode of the file /proc/PID/exe runs.
    private static func exeFile(_ dir: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard stat(dir + "/exe", &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// NUL-separated words.
    private static func words(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
