import Glibc

/// Whose files a run would act on. notif works on one user's files with that user's rights:
/// run as root with another user's HOME (`sudo -E notif …`), it would rename, create and append
/// to files that user controls, with root's hands, and leave root-owned files behind that the
/// user's own runs then cannot read; pointed at directories another user can write (an XDG
/// directory in /tmp), it would put units and entries where that user can replace them. So
/// every command that touches files checks first.
public enum RunOwnership {
    /// Why this process must not act on the files under `paths`, or nil when it may.
    /// - HOME belongs to the effective user (when it does not exist yet, the nearest directory
    ///   above it belongs to the user or root).
    /// - The XDG base directories and the directories notif writes in below them (systemd's
    ///   user units, autostart, timer stamps) belong to the user or root and are not writable
    ///   by everyone; a link among them is the user's or root's.
    /// - notif's own directories belong to the user and nobody else may write in them.
    public static func problem(paths: NotifPaths, euid: UInt32 = geteuid()) -> String? {
        // Looked up only for a message: an account lookup goes through NSS, at every start otherwise.
        let me = { Posix.userName(euid) }
        if let (path, status) = existingOrAbove(paths.home), status.owner != euid, path == paths.home || status.owner != 0 {
            let name = Posix.userName(status.owner)
            let what = path == paths.home ? "HOME \(paths.home)" : "HOME \(paths.home) does not exist, and \(path)"
            if euid == 0 {
                return "\(what) belongs to \(name) (uid \(status.owner)), and notif does not act on another user's files as root; run it as that user: sudo -u \(name) notif …"
            }
            return "\(what) belongs to \(name) (uid \(status.owner)), not to \(me()); notif acts only on your own files: set HOME to your own home directory"
        }
        let shared = [paths.configHome, paths.stateHome, paths.dataHome]
        let below = [Posix.join(paths.configHome, "systemd"), Posix.join(paths.configHome, "systemd/user"),
                     Posix.join(paths.configHome, "autostart"), Posix.join(paths.dataHome, "systemd"),
                     Posix.join(paths.dataHome, "systemd/timers")]
        for directory in shared + below {
            if let link = linkStatus(directory), link.owner != euid, link.owner != 0 {
                return "\(directory) is a link that belongs to \(Posix.userName(link.owner)) (uid \(link.owner)); notif follows only your own links: remove it"
            }
            guard let (path, status) = existingOrAbove(directory) else { continue }
            if status.owner != euid && status.owner != 0 && (path == directory || shared.contains(directory)) {
                return "\(path) belongs to \(Posix.userName(status.owner)) (uid \(status.owner)), not to \(me()); notif keeps its files only in directories of yours"
            }
            if path == directory && status.mode & 0o002 != 0 {
                // A shared sticky directory like /tmp (or one of root's) must stay writable for
                // everyone: only a plain directory of one's own may be closed with chmod.
                let closeIt = status.owner == euid && status.mode & 0o1000 == 0 ? " (or `chmod o-w \(directory)`)" : ""
                return "\(directory) may be written by every user (mode \(String(status.mode, radix: 8))); notif keeps its files only where others cannot replace them: use a directory of your own\(closeIt)"
            }
        }
        for own in [paths.configDirectory, paths.stateDirectory] {
            if let link = linkStatus(own), link.owner != euid {
                return "\(own) is a link that belongs to \(Posix.userName(link.owner)) (uid \(link.owner)); notif follows only your own links: remove it"
            }
            guard let status = status(own) else { continue }
            // A link of one's own to another user's directory: name where it leads.
            let named = linkStatus(own).map { _ in "\(own) leads to \(Posix.resolved(own) ?? "?"), which" } ?? own
            if status.owner != euid {
                // A link is the user's to remove; chown of a link changes only the link.
                let fix = linkStatus(own) != nil ? "remove the link (`rm \(own)`) or make it lead to a directory of yours"
                    : euid == 0 ? "run notif as that user (sudo -u \(Posix.userName(status.owner)) notif …)" : "give it back with `sudo chown -R \(me()): \(own)`"
                return "\(named) belongs to \(Posix.userName(status.owner)) (uid \(status.owner)), not to \(me()); " + fix
            }
            if status.mode & 0o022 != 0 {
                return "\(named) may be written by other users (mode \(String(status.mode, radix: 8))); make it private with `chmod 700 \(own)`"
            }
        }
        return nil
    }

    /// The status of an existing path (links followed), nil when it does not exist or cannot be examined.
    private static func status(_ path: String) -> FileStatus? {
        (try? FileStatus.of(path)) ?? nil
    }

    /// The status of `path` itself when it is a symlink, else nil.
    private static func linkStatus(_ path: String) -> FileStatus? {
        guard let status = (try? FileStatus.of(path, followLinks: false)) ?? nil, status.kind == .symlink else { return nil }
        return status
    }

    /// `path` when it exists, else the nearest directory above it that does, with its status.
    private static func existingOrAbove(_ path: String) -> (String, FileStatus)? {
        var candidate = path
        for _ in 0..<256 {
            if let status = status(candidate) { return (candidate, status) }
            let parent = Posix.directory(of: candidate)
            if parent == candidate { return nil }
            candidate = parent
        }
        return nil
    }
}
