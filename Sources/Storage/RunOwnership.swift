import Glibc

/// Whose files a run would act on. notif works on one user's files with that user's rights:
/// run as root with another user's HOME (`sudo -E notif …`), it would rename, create and append
/// to files that user controls, with root's hands, and leave root-owned files behind that the
/// user's own runs then cannot read. So every command that touches files checks first.
public enum RunOwnership {
    /// Why this process must not act on the files under `paths`, or nil when it may.
    /// - HOME, when it exists, belongs to the effective user.
    /// - The XDG base directories, when they exist, belong to the effective user or root.
    /// - notif's own directories, when they exist, belong to the effective user and nobody else
    ///   may write in them.
    public static func problem(paths: NotifPaths, euid: UInt32 = geteuid()) -> String? {
        if let status = status(paths.home), status.owner != euid {
            let name = Posix.userName(status.owner)
            if euid == 0 {
                return "HOME \(paths.home) belongs to \(name) (uid \(status.owner)), and notif does not act on another user's files as root; run it as that user: sudo -u \(name) notif …"
            }
            return "HOME \(paths.home) belongs to \(name) (uid \(status.owner)), not to \(Posix.userName(euid)); notif acts only on your own files: set HOME to your own home directory"
        }
        for base in [paths.configHome, paths.stateHome] {
            if let status = status(base), status.owner != euid, status.owner != 0 {
                return "\(base) belongs to \(Posix.userName(status.owner)) (uid \(status.owner)), not to \(Posix.userName(euid)); notif keeps its files only in directories of yours"
            }
        }
        for own in [paths.configDirectory, paths.stateDirectory] {
            guard let status = status(own) else { continue }
            if status.owner != euid {
                return "\(own) belongs to \(Posix.userName(status.owner)) (uid \(status.owner)), not to \(Posix.userName(euid)); "
                    + (euid == 0 ? "run notif as that user (sudo -u \(Posix.userName(status.owner)) notif …)" : "give it back with `sudo chown -R \(Posix.userName(euid)): \(own)`")
            }
            if status.mode & 0o022 != 0 {
                return "\(own) may be written by other users (mode \(String(status.mode, radix: 8))); make it private with `chmod 700 \(own)`"
            }
        }
        return nil
    }

    /// The status of an existing path (links followed), nil when it does not exist or cannot be examined.
    private static func status(_ path: String) -> FileStatus? {
        (try? FileStatus.of(path)) ?? nil
    }
}
