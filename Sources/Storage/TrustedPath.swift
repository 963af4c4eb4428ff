import Glibc

/// The one rule for a file or directory notif trusts another run to find as it left it (the
/// program an entry names, the places an entry carries, a desktop entry it launches), as
/// OpenSSH's `StrictModes` has it: the path and every directory above it belong to root or the
/// user, and neither their group nor others may write them. A sticky directory (`/tmp`) does not
/// pass: whatever another user can create there once the path is gone (after a reboot, a tmp
/// cleaner) is what the entry would run. Links are followed, and each is judged where it leads.
public enum TrustedPath {
    /// Why `path` fails the rule for `uid`, or nil when it passes. A path that does not exist (yet)
    /// passes when the part of it that exists does: only root or the user can make the rest.
    public static func problem(_ path: String, uid: UInt32 = geteuid()) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        if let problem = judge("/", uid: uid) { return problem }
        var current = "/"
        var pending = components(path)
        var links = 0
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                current = Posix.directory(of: current)
                continue
            }
            let next = Posix.join(current, name)
            let status: FileStatus
            switch examine(next) {
            case .missing: return nil
            case .unknown(let why): return "\(next) cannot be examined (\(why))"
            case .found(let found): status = found
            }
            if status.kind == .symlink {
                // The link lies in `current`, which passed: only its owner could have made it.
                links += 1
                guard links <= 40, let target = linkText(next) else { return "\(next) is a link notif cannot follow" }
                if target.hasPrefix("/") { current = "/" }
                pending = components(target) + pending
                continue
            }
            if let problem = judge(next, status: status, uid: uid) { return problem }
            current = next
        }
        return nil
    }

    private static func judge(_ path: String, status given: FileStatus? = nil, uid: UInt32) -> String? {
        guard let status = given ?? ((try? FileStatus.of(path, followLinks: false)) ?? nil) else { return "\(path) cannot be examined" }
        if status.owner != 0 && status.owner != uid {
            return "\(path) belongs to \(Posix.userName(status.owner)), uid \(status.owner), not to you or root"
        }
        if status.mode & 0o022 != 0 {
            let who = status.mode & 0o002 != 0 ? "every user" : "its group"
            let sticky = status.mode & 0o1000 != 0 ? ", and the sticky bit does not stop them from making it again once it is gone" : ""
            return "\(path) may be written by \(who), mode \(String(status.mode, radix: 8))\(sticky)"
        }
        return nil
    }

    private enum Examined { case found(FileStatus), missing, unknown(String) }

    private static func examine(_ path: String) -> Examined {
        do {
            return try FileStatus.of(path, followLinks: false).map(Examined.found) ?? .missing
        } catch {
            return .unknown(error.reason)
        }
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    private static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
