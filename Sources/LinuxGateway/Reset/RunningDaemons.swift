import Glibc
import Storage

/// The `notif daemon` processes of this user running now, by the environment each started with
/// (read from /proc/PID/environ, which only the process's own user may read): a daemon shows the
/// built-in schedule of its `XDG_STATE_HOME`, wherever that is, so `notif reset --entries` looks
/// there even when nothing else names it.
enum RunningDaemons {
    /// `HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` of each process of this user whose
    /// arguments include `daemon` (callers confirm it holds notif's daemon lock).
    static func environments(procRoot: String = "/proc") -> [[String: String]] {
        let uid = getuid()
        let names = (try? FileIO.names(in: procRoot)) ?? []
        return names.filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) }.compactMap { pid -> [String: String]? in
            let dir = procRoot + "/" + pid
            var info = stat()
            guard stat(dir, &info) == 0, info.st_uid == uid,
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

    /// NUL-separated words.
    private static func words(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
