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
        self.reason = Posix.message(for: code)
    }

    public init(_ action: String, _ path: String, code: Int32 = 0, reason: String) {
        self.action = action
        self.path = path
        self.code = code
        self.reason = reason
    }

    public var description: String { "cannot \(action) \(path): \(reason)" }
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

    /// The current user's id and, from the password database, home directory and login name.
    public static func currentUser() -> (uid: UInt32, name: String, home: String?) {
        let uid = getuid()
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        getpwuid_r(uid, &record, &buffer, buffer.count, &result)
        guard result != nil else { return (uid, String(uid), nil) }
        return (uid, String(cString: record.pw_name), String(cString: record.pw_dir))
    }
}
