import SharedLogic
import Storage

/// Schedules reminders as systemd user timers: `notif-ID.timer` + `notif-ID.service` in
/// `$XDG_CONFIG_HOME/systemd/user/`, enabled with `systemctl --user`.
///
/// Enabling and disabling always run with `SYSTEMD_OFFLINE=1`, which makes systemctl edit the
/// `timers.target.wants` links itself instead of asking a manager: on a machine booted with
/// systemd but without a user manager (SSH, su, containers) plain `systemctl --user enable`
/// fails with "Failed to connect to bus: No medium found". The timer then starts with the
/// manager at the next login. When a manager runs, a change is followed by `daemon-reload` and
/// `start`; a cancel by `stop`, `clean --what=state` (so a later install does not fire at once
/// from an old stamp) and `daemon-reload`.
public struct SystemdTimerGateway: LocalNotificationGateway {
    public let name = "systemd"
    let runner: any ProcessRunner
    /// `$XDG_CONFIG_HOME/systemd/user`.
    let unitDirectory: String
    /// `$XDG_DATA_HOME/systemd/timers`, where a user manager keeps `stamp-UNIT` files.
    let stampDirectory: String
    let managerRunning: @Sendable () -> Bool
    let timeout: Double

    public init(runner: any ProcessRunner, paths: NotifPaths, managerRunning: @escaping @Sendable () -> Bool, timeout: Double = 30) {
        self.runner = runner
        self.unitDirectory = Posix.join(paths.configHome, "systemd/user")
        self.stampDirectory = Posix.join(paths.dataHome, "systemd/timers")
        self.managerRunning = managerRunning
        self.timeout = timeout
    }

    // MARK: Reading (files only: no process)

    public func installed() throws(GatewayError) -> [String: String] {
        // Each unit file read once: the timer and service texts by id, then combined.
        var texts: [String: (timer: String?, service: String?)] = [:]
        for name in try unitFileNames() {
            guard let id = SystemdUnits.id(inUnitName: name) else { continue }
            let path = Posix.join(unitDirectory, name)
            guard let text = try ownFile(path) else { continue }
            if path == timerPath(id) { texts[id, default: (nil, nil)].timer = text }
            if path == servicePath(id) { texts[id, default: (nil, nil)].service = text }
        }
        var result: [String: String] = [:]
        for (id, pair) in texts {
            result[id] = Self.combined(timer: pair.timer, service: pair.service, enabled: isEnabled(id))
        }
        return result
    }

    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        Self.combined(timer: SystemdUnits.timer(for: entry), service: try SystemdUnits.service(for: entry), enabled: true)
    }

    /// What `installed()` reports for one reminder: both files and whether the timer is enabled.
    static func combined(timer: String?, service: String?, enabled: Bool) -> String {
        "[timer]\n" + (timer ?? "(missing)\n") + "[service]\n" + (service ?? "(missing)\n") + (enabled ? "" : "(not enabled)\n")
    }

    // MARK: Changing

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let id = entry.reminder.id
        var changed = false
        // The service first, so the timer never names a unit that is not there yet.
        let files = [(servicePath(id), try SystemdUnits.service(for: entry)), (timerPath(id), SystemdUnits.timer(for: entry))]
        for (path, text) in files {
            let current = try ownFile(path)
            if current == text { continue }
            if current == nil && exists(path) {
                throw GatewayError("cannot replace \(path): it was not written by notif (its first line is not notif's marker); rename or remove it")
            }
            try write(text, to: path)
            changed = true
        }
        let enabled = isEnabled(id)
        guard changed || !enabled else { return }
        try systemctl(["enable", SystemdUnits.timerName(id)], offline: true)
        guard managerRunning() else { return }
        let stillTrue = "; the timer files are written and enabled, so the timer starts with your next login"
        try systemctl(["daemon-reload"], offline: false, stillTrue: stillTrue)
        try systemctl(["start", SystemdUnits.timerName(id)], offline: false, stillTrue: stillTrue)
    }

    public func cancel(_ id: String) throws(GatewayError) {
        let timer = timerPath(id), service = servicePath(id), link = wantsLink(id), stamp = stampPath(id)
        let timerOurs = (try ownFile(timer)) != nil
        let serviceOurs = (try ownFile(service)) != nil
        // A timer of that name that notif did not write is the user's: leave it, its link and its stamp.
        let timerForeign = !timerOurs && exists(timer)
        let linked = !timerForeign && isEnabled(id)
        let stamped = !timerForeign && exists(stamp)
        guard timerOurs || serviceOurs || linked || stamped else { return }
        let manager = managerRunning()
        if manager && (timerOurs || serviceOurs) {
            try systemctl(["stop", SystemdUnits.timerName(id), SystemdUnits.serviceName(id)], offline: false,
                          stillTrue: "; nothing was removed", tolerate: Self.notLoaded)
            // Best effort: the stamp file is removed below in any case.
            _ = try? systemctl(["clean", "--what=state", SystemdUnits.timerName(id)], offline: false)
        }
        if timerOurs {
            do {
                try systemctl(["disable", SystemdUnits.timerName(id)], offline: true, stillTrue: "; nothing was removed")
            } catch where error.schedulerMissing {
                try remove(link)
            }
        }
        if linked { try remove(link) }
        if timerOurs { try remove(timer) }
        if serviceOurs { try remove(service) }
        if stamped { try remove(stamp) }
        if manager && (timerOurs || serviceOurs) {
            try systemctl(["daemon-reload"], offline: false,
                          stillTrue: "; the timer files are removed, so it no longer runs after the next login")
        }
    }

    // MARK: systemctl

    /// "Unit … not loaded." / "not found": stopping what the manager does not know is fine.
    static func notLoaded(_ result: ProcessResult) -> Bool {
        result.stderrText.contains("not loaded") || result.stderrText.contains("not found")
    }

    private func systemctl(
        _ arguments: [String], offline: Bool, stillTrue: String = "",
        tolerate: (ProcessResult) -> Bool = { _ in false }
    ) throws(GatewayError) {
        let argv = ["systemctl", "--user"] + arguments
        let result: ProcessResult
        do {
            result = try runner.run(argv, input: nil, environment: offline ? ["SYSTEMD_OFFLINE": "1"] : [:], timeout: timeout)
        } catch {
            throw error.notFound
                ? GatewayError("systemctl is not installed (Debian: apt install systemd)", schedulerMissing: true)
                : GatewayError(error.description)
        }
        if result.succeeded || tolerate(result) { return }
        throw GatewayError("`\(argv.joined(separator: " "))` failed (\(result.failureSummary))\(stillTrue)")
    }

    // MARK: Files

    func timerPath(_ id: String) -> String { Posix.join(unitDirectory, SystemdUnits.timerName(id)) }
    func servicePath(_ id: String) -> String { Posix.join(unitDirectory, SystemdUnits.serviceName(id)) }
    func wantsLink(_ id: String) -> String { Posix.join(unitDirectory, "timers.target.wants/" + SystemdUnits.timerName(id)) }
    func stampPath(_ id: String) -> String { Posix.join(stampDirectory, "stamp-" + SystemdUnits.timerName(id)) }

    /// Enabled: the `timers.target.wants` link exists (whatever it points to).
    func isEnabled(_ id: String) -> Bool { (try? FileStatus.of(wantsLink(id), followLinks: false)) != nil }

    private func exists(_ path: String) -> Bool { (try? FileStatus.of(path, followLinks: false)) != nil }

    /// The text of a unit file notif wrote, nil when missing or not notif's.
    private func ownFile(_ path: String) throws(GatewayError) -> String? {
        let bytes: [UInt8]?
        do {
            bytes = try FileIO.read(path, limit: 1 << 16)
        } catch {
            throw GatewayError(error.description)
        }
        guard let bytes else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasPrefix(SystemdUnits.marker + "\n") ? text : nil
    }

    private func write(_ text: String, to path: String) throws(GatewayError) {
        do {
            try FileIO.makeDirectory(unitDirectory)
            try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644)
        } catch {
            throw GatewayError(error.description)
        }
    }

    private func remove(_ path: String) throws(GatewayError) {
        do {
            try FileIO.remove(path)
        } catch {
            throw GatewayError(error.description)
        }
    }

    private func unitFileNames() throws(GatewayError) -> [String] {
        do {
            return try FileIO.names(in: unitDirectory).filter { $0.hasPrefix("notif-") }
        } catch {
            throw GatewayError(error.description)
        }
    }
}
