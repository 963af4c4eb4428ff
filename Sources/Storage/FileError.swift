import Glibc

/// A file-system failure that names the path and the system's reason (`cannot read /x: Permission denied`).
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let action: String
    public let code: Int32
    public let reason: String

    public init(_ action: String, _ path: String, code: Int32 = errno) {
        self.action = action
        self.path = path
        self.code = code
        var reason = Posix.message(for: code)
        // "Permission denied" on a file another user owns (a run with sudo -E leaves root's
        // files in the user's directories): say whose it is and how to get it back.
        if code == EACCES || code == EPERM, let owned = Self.ownerNote(path) { reason += " (\(owned))" }
        self.reason = reason
    }

    public init(_ action: String, _ path: String, code: Int32 = 0, reason: String) {
        self.action = action
        self.path = path
        self.code = code
        self.reason = reason
    }

    public var description: String { "cannot \(action) \(path): \(reason)" }

    /// A symlink where notif keeps its own file: never followed (it could lead anywhere).
    public static func symlink(_ action: String, _ path: String) -> FileError {
        FileError(action, path, code: ELOOP, reason: "it is a symbolic link, and notif does not follow links for its own files; remove it")
    }

    /// An error when a file notif was about to use as its own belongs to someone else; nil when it is this process's.
    public static func foreignOwner(_ action: String, _ path: String, owner: UInt32) -> FileError? {
        let me = geteuid()
        guard owner != me else { return nil }
        return FileError(action, path, code: EPERM, reason: Posix.notYours(path, owner: owner, subject: "it"))
    }

    /// Whose the file (or its nearest existing directory) is, when not this process's; nil otherwise.
    static func ownerNote(_ path: String) -> String? {
        var candidate = path
        for _ in 0..<64 {
            var info = stat()
            if lstat(candidate, &info) == 0 {
                return info.st_uid == geteuid() ? nil : Posix.notYours(candidate, owner: info.st_uid, subject: candidate == path ? "it" : candidate)
            }
            let parent = Posix.directory(of: candidate)
            if parent == candidate { return nil }
            candidate = parent
        }
        return nil
    }
}

/// Small wrappers over the C library that Swift does not make pleasant.
public enum Posix {
    public static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// An environment variable, or nil when unset.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The directory part of `path` (`/a/b` → `/a`, `b` → `.`).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// Where `path` leads after every link, when it exists.
    public static func resolved(_ path: String) -> String? {
        guard let result = realpath(path, nil) else { return nil }
        defer { free(result) }
        return String(cString: result)
    }

    /// The last component of `path`.
    public static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Writes all of `bytes` to `fd`, retrying partial writes and EINTR.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// "it belongs to NAME, uid N, not to you": with the fix, which depends on who runs notif and where it is.
    static func notYours(_ path: String, owner: UInt32, subject: String) -> String {
        let name = userName(owner)
        if geteuid() == 0 {
            return "\(subject) belongs to \(name), uid \(owner); run notif as that user: sudo -u \(name) notif …"
        }
        let me = userName(geteuid())
        // Root's own directories (/, /var) are not to be given away: the fix is another place.
        if owner == 0, let home = currentUser().home, !path.hasPrefix(home + "/") {
            return "\(subject) belongs to root, not to \(me), and is not a place for your files: set HOME, or XDG_CONFIG_HOME and XDG_STATE_HOME, to directories of your own"
        }
        return "\(subject) belongs to \(name), uid \(owner), not to \(me); give it back with `sudo chown \(me): \(path)` or remove it"
    }
}
