import Glibc

/// Serialises, across test targets and processes, the tests that set the real-time clock (to the
/// time it already says, which still cancels every clock-change timer) with those that count a
/// sleeping daemon's wakes: one `flock` on a file in /tmp.
public func withClockLock<T>(_ body: () throws -> T) rethrows -> T {
    let fd = open("/tmp/notif-tests-clock.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
    if fd >= 0 { while flock(fd, LOCK_EX) != 0 && errno == EINTR {} }
    defer { if fd >= 0 { close(fd) } }
    return try body()
}
