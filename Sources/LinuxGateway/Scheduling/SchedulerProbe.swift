import Glibc
import Storage
import Synchronization

/// Facts about this machine that decide which scheduler can run notif's entries. Each fact is
/// looked up the first time it is asked for, so a choice that stops at systemd never scans
/// /proc for cron.
public final class SchedulerProbe: Sendable {
    /// Each fact as a lookup made on first use; a setter (tests) replaces it with a known value.
    private struct Facts: Sendable {
        var systemd: Lazy<Bool>
        var cron: Lazy<Bool>
        var crontab: Lazy<String?>
        var embedded: Lazy<Bool>
        var booted: Lazy<Bool>
        var autostart: Lazy<Bool>
    }

    private let facts: Mutex<Facts>

    /// The fact at `key`, looked up outside the lock (a lookup may take a while).
    private func read<Value: Sendable>(_ key: KeyPath<Facts, Lazy<Value>>) -> Value {
        facts.withLock { $0[keyPath: key] }.value
    }

    private func write<Value: Sendable>(_ key: WritableKeyPath<Facts, Lazy<Value>>, _ value: Value) {
        facts.withLock { $0[keyPath: key] = Lazy(value) }
    }

    public var systemdUserManagerRunning: Bool {
        get { read(\.systemd) }
        set { write(\.systemd, newValue) }
    }
    public var cronDaemonRunning: Bool {
        get { read(\.cron) }
        set { write(\.cron, newValue) }
    }
    /// nil when `crontab` may be used, else why not.
    public var crontabProblem: String? {
        get { read(\.crontab) }
        set { write(\.crontab, newValue) }
    }
    /// A `notif daemon` holds its lock for this user's state directory.
    public var embeddedDaemonRunning: Bool {
        get { read(\.embedded) }
        set { write(\.embedded, newValue) }
    }

    /// The machine was started with systemd (`/run/systemd/system` exists, as sd_booted(3)
    /// checks): a user manager starts at each login, so a timer waits for it.
    public var systemdBooted: Bool {
        get { read(\.booted) }
        set { write(\.booted, newValue) }
    }
    /// `notif daemon --install-autostart` put its entry in place: the daemon starts at each desktop login.
    public var embeddedAutostart: Bool {
        get { read(\.autostart) }
        set { write(\.autostart, newValue) }
    }

    /// Known facts (tests).
    public init(systemdUserManagerRunning: Bool, cronDaemonRunning: Bool, crontabProblem: String?, embeddedDaemonRunning: Bool = false,
                systemdBooted: Bool = false, embeddedAutostart: Bool = false) {
        facts = Mutex(Facts(systemd: Lazy(systemdUserManagerRunning), cron: Lazy(cronDaemonRunning), crontab: Lazy(crontabProblem),
                            embedded: Lazy(embeddedDaemonRunning), booted: Lazy(systemdBooted), autostart: Lazy(embeddedAutostart)))
    }

    private init(systemd: @escaping @Sendable () -> Bool, cron: @escaping @Sendable () -> Bool, crontab: @escaping @Sendable () -> String?,
                 embedded: @escaping @Sendable () -> Bool, booted: @escaping @Sendable () -> Bool, autostart: @escaping @Sendable () -> Bool) {
        facts = Mutex(Facts(systemd: Lazy(systemd), cron: Lazy(cron), crontab: Lazy(crontab),
                            embedded: Lazy(embedded), booted: Lazy(booted), autostart: Lazy(autostart)))
    }

    /// The running machine: no processes started, only the files each asked-for fact needs.
    /// - Parameter daemonLock: the lock file `notif daemon` holds while it runs.
    /// - Parameter autostartEntry: the desktop entry that starts `notif daemon` at login.
    public static func live(environment lookup: @escaping @Sendable (String) -> String? = Posix.environment, daemonLock: String? = nil,
                            autostartEntry: String? = nil) -> SchedulerProbe {
        SchedulerProbe(
            systemd: { systemdManagerAnswers(runtimeDirectory: lookup("XDG_RUNTIME_DIR")) },
            cron: { cronDaemonAlive() },
            crontab: { crontabProblem(user: Posix.currentUser().name, path: lookup("PATH")) },
            embedded: { daemonLock.map(FileLock.isHeld) ?? false },
            booted: { access("/run/systemd/system", F_OK) == 0 },
            autostart: { autostartEntry.map { access($0, F_OK) == 0 } ?? false })
    }

    /// Whether this user's systemd manager serves `systemd/private` in the runtime directory
    /// (`XDG_RUNTIME_DIR` when absolute, else /run/user/UID). The socket file stays behind a
    /// manager that died or was stopped, so only a connection it accepts counts.
    static func systemdManagerAnswers(runtimeDirectory: String?) -> Bool {
        UnixSocket.listener(SystemdManagerZone.privateSocket(runtimeDirectory: runtimeDirectory), abstract: false) != nil
    }

    /// root's cron daemon: a process named cron/crond whose real and effective uid are 0, from
    /// the pid file first, else a scan of /proc. Anyone can start a program named `cron` (a
    /// renamed `sleep`); only root's daemon runs users' crontabs, so no other owner counts.
    static func cronDaemonAlive() -> Bool {
        for pidFile in ["/run/crond.pid", "/var/run/crond.pid"] {
            if let bytes = try? FileIO.read(pidFile, limit: 64),
               let pid = Int32(String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first ?? ""),
               isCron(pid) {
                return true
            }
        }
        return FileIO.processIDs().contains { Int32($0).map(isCron) ?? false }
    }

    /// Whether `pid` is root's cron daemon: named cron or crond, and owned by root.
    static func isCron(_ pid: Int32) -> Bool {
        guard let bytes = try? FileIO.read("/proc/\(pid)/comm", limit: 64) else { return false }
        let comm = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        guard comm == "cron" || comm == "crond" else { return false }
        return ownedByRoot(pid)
    }

    /// The `Uid:` line of /proc/PID/status says real and effective uid 0. (Not the owner of
    /// /proc/PID: that turns root for any process that makes itself non-dumpable.)
    static func ownedByRoot(_ pid: Int32) -> Bool {
        guard let ids = RunningDaemons.realAndEffectiveUID("/proc/\(pid)") else { return false }
        return ids.real == 0 && ids.effective == 0
    }

    /// Real and effective uid from the text of /proc/PID/status (`Uid:\treal\teffective\tsaved\tfs`).
    static func uids(status text: String) -> (real: UInt32, effective: UInt32)? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
        let fields = line.dropFirst(4).split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let real = UInt32(fields[0]), let effective = UInt32(fields[1]) else { return nil }
        return (real, effective)
    }

    /// Why this user may not use `crontab` (missing program, cron.allow / cron.deny), or nil.
    static func crontabProblem(user: String, path: String?) -> String? {
        // Where posix_spawnp will look: this process's PATH (glibc's default when unset), nothing more.
        let dirs = (path ?? "/bin:/usr/bin").split(separator: ":").map(String.init)
        guard dirs.contains(where: { access(Posix.join($0, "crontab"), X_OK) == 0 }) else {
            return CronGateway.crontabMissing
        }
        if getuid() == 0 { return nil }
        if let allow = try? FileIO.read("/etc/cron.allow") {
            return listed(user, in: allow) ? nil : "\(user) is not in /etc/cron.allow"
        }
        if let deny = try? FileIO.read("/etc/cron.deny"), listed(user, in: deny) {
            return "\(user) is listed in /etc/cron.deny"
        }
        return nil
    }

    private static func listed(_ user: String, in bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .contains { $0.trimmingSpaces == user }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let first = s.first, first.isWhitespace { s = s.dropFirst() }
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}
