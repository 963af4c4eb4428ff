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

    /// The current user's id and, from /etc/passwd, login name and home directory. Read
    /// directly (no NSS), so the binary can be linked statically; a user only known to a
    /// network directory falls back to USER/LOGNAME and no home.
    public static func currentUser() -> (uid: UInt32, name: String, home: String?) {
        let uid = getuid()
        if let bytes = try? FileIO.read("/etc/passwd", limit: 16 << 20) {
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                guard fields.count >= 6, let id = UInt32(String(decoding: fields[2], as: UTF8.self)), id == uid else { continue }
                return (uid, String(decoding: fields[0], as: UTF8.self), String(decoding: fields[5], as: UTF8.self))
            }
        }
        let name = environment("USER") ?? environment("LOGNAME") ?? String(uid)
        return (uid, name, nil)
    }
}
