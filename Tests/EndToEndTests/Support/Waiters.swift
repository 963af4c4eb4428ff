import Foundation

/// Processes that are notif's detached reminder waiters (or their notify-send), found by their
/// command line and told apart by the HOME in their environment or their owner.
enum Waiters {
    /// Pids whose command line contains `marker` and whose environment has `HOME=home`, or whose owner is `uid`.
    static func find(_ marker: String, home: String? = nil, uid: String? = nil) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(pid_t.init).filter { pid in
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  String(decoding: cmdline, as: UTF8.self).contains(marker) else { return false }
            if let home {
                let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
                if !environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "HOME=" + home }) { return false }
            }
            if let uid {
                var info = stat()
                guard stat("/proc/\(pid)", &info) == 0, String(info.st_uid) == uid else { return false }
            }
            return true
        }
    }
}
