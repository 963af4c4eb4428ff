import Glibc

/// posix_spawn attributes for a child that starts with every signal's default action and nothing
/// blocked, in its own process group (unless `ownGroup` is false: a program in the terminal's
/// foreground): whatever the parent ignores or blocks, a deadline can still kill the child and
/// everything it started, by group.
public func withSpawnAttributes<Result, Failure: Error>(
    ownGroup: Bool = true, _ body: (inout posix_spawnattr_t) throws(Failure) -> Result
) throws(Failure) -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigfillset(&defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    return try body(&attributes)
}
