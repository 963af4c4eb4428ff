import Glibc

/// Replaces a file so that readers see the old bytes or the new ones, never a mix, even after a
/// crash: a 0600 temp file in the same directory, write, fsync, rename over, fsync the directory.
/// A writer killed half way (SIGKILL) leaves its temp file: the next write removes those.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(FileError) {
        let directory = Posix.directory(of: path)
        removeStaleTemporaries(of: path)
        let temp = Posix.join(directory, temporaryPrefix(of: path) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if fd < 0 { throw FileError("write", path, code: errno) }
        var failure = fill(fd, with: bytes, mode: mode, path: path)
        if failure == nil && rename(temp, path) != 0 { failure = FileError("replace", path) }
        if let failure {
            unlink(temp)
            throw failure
        }
        syncDirectory(directory)
    }

    /// Writes a new file at `path` (which must not exist), 0600, synced: a copy kept beside another.
    public static func create(_ bytes: [UInt8], at path: String, mode: mode_t = 0o600) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd < 0 { throw FileError("create", path) }
        if let failure = fill(fd, with: bytes, mode: mode, path: path) {
            unlink(path)
            throw failure
        }
        syncDirectory(Posix.directory(of: path))
    }

    /// Gives the new file `fd` its mode and `bytes`, syncs and closes it; why not, for `path`.
    private static func fill(_ fd: Int32, with bytes: [UInt8], mode: mode_t, path: String) -> FileError? {
        var failure: FileError?
        if fchmod(fd, mode) != 0 || !Posix.writeAll(fd, bytes) || fsync(fd) != 0 { failure = FileError("write", path) }
        if close(fd) != 0 && failure == nil { failure = FileError("write", path) }
        return failure
    }

    /// `.NAME.tmp-`: how the temp files of `path` begin (then `PID-RANDOM`).
    static func temporaryPrefix(of path: String) -> String { ".\(Posix.baseName(of: path)).tmp-" }

    /// Removes the temp files of `path` that writers killed half way left: those whose process is
    /// gone, when they are this user's own regular files (a live writer's, or anyone else's, stay).
    static func removeStaleTemporaries(of path: String) {
        let directory = Posix.directory(of: path), prefix = temporaryPrefix(of: path)
        for name in (try? FileIO.names(in: directory)) ?? [] where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil,
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let temp = Posix.join(directory, name)
            guard let status = (try? FileStatus.of(temp, followLinks: false)) ?? nil, status.kind == .file, status.owner == geteuid() else { continue }
            unlink(temp)
        }
    }

    /// Makes a rename or create in `directory` durable.
    public static func syncDirectory(_ directory: String) {
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }
}
