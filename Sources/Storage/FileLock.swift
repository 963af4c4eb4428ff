import Glibc
import Synchronization

/// An exclusive `flock` on a lock file. Other notif processes wait for it; the kernel releases it
/// when the holder exits or dies, so a killed process never leaves a stale lock.
public enum FileLock {
    /// Opens the lock file: read-only when it exists (flock needs no write access, and a no-op
    /// run then opens nothing for writing), created 0600 the first time.
    /// - Parameter forWriting: opened for writing even when it exists, so that its release (a
    ///   close, or the holder's death) is a close-after-write the daemon's inotify watch sees.
    static func openLockFile(_ path: String, forWriting: Bool = false) throws(FileError) -> Int32 {
        // Never through a symlink: a lock file is notif's own.
        // Non-blocking: a FIFO in its place must not hang the open.
        var fd = open(path, (forWriting ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 && errno == ENOENT { fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        if fd < 0 && errno == EEXIST { fd = open(path, (forWriting ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        if fd < 0 { throw errno == ELOOP ? FileError.symlink("open the lock file", path) : FileError("open the lock file", path) }
        return fd
    }

    /// Told, with the lock file's path, when `acquire` has waited `noticeAfter` seconds for a
    /// lock another process holds (the command line says so on stderr); nil: waits silently.
    static let waitNotice = Mutex<(@Sendable (String) -> Void)?>(nil)
    static let noticeAfter = 1.0

    /// Has every later wait of this process for another's lock said (`waitNotice`).
    public static func sayWaits(_ notice: @escaping @Sendable (String) -> Void) {
        waitNotice.withLock { $0 = notice }
    }

    /// Waits for the lock and returns it held.
    public static func acquire(_ path: String) throws(FileError) -> HeldLock {
        let fd = try openLockFile(path)
        if let notice = waitNotice.withLock({ $0 }) {
            // A moment quietly (most holders finish in milliseconds), then once in words.
            var waited = 0.0
            while waited < noticeAfter {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 { return HeldLock(fd: fd) }
                if errno != EWOULDBLOCK && errno != EINTR { break }
                usleep(20_000)
                waited += 0.02
            }
            notice(path)
        }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                let error = FileError("lock", path)
                close(fd)
                throw error
            }
        }
        return HeldLock(fd: fd)
    }

    /// Takes the lock only if nobody holds it; nil when another process does.
    /// - Parameter announcingRelease: see `openLockFile(_:forWriting:)`.
    public static func tryAcquire(_ path: String, announcingRelease: Bool = false) throws(FileError) -> HeldLock? {
        let fd = try openLockFile(path, forWriting: announcingRelease)
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw FileError("lock", path, code: code)
        }
        return HeldLock(fd: fd)
    }
}

extension FileLock {
    /// Whether some process holds the lock at `path` right now. Creates nothing: a missing lock
    /// file means nobody holds it. (A shared probe lock is taken and dropped at once.)
    public static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }
}

/// A lock held until `release()` or deinit.
public final class HeldLock {
    private var fd: Int32
    init(fd: Int32) { self.fd = fd }
    public func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }
    deinit { release() }
}
