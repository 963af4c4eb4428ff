import Glibc
import SharedLogic
import Storage

/// Schedules reminders as systemd user timers: `notif-ID-TAG.timer` + `notif-ID-TAG.service` (TAG:
/// the configuration's, see `ConfigurationID`) in `~/.config/systemd/user/`, the directory the
/// user manager reads (whatever `XDG_CONFIG_HOME` says: a configuration kept elsewhere still
/// gets timers that fire), enabled with `systemctl --user`.
///
/// Enabling and disabling always run with `SYSTEMD_OFFLINE=1`, which makes systemctl edit the
/// `timers.target.wants` links itself instead of asking a manager: on a machine booted with
/// systemd but without a user manager (SSH, su, containers) plain `systemctl --user enable`
/// fails with "Failed to connect to bus: No medium found". The timer then starts with the
/// manager at the next login. When a manager runs, a change is followed by `daemon-reload` and
/// `start`; a cancel by `stop`, `clean --what=state` (so a later install does not fire at once
/// from an old stamp) and `daemon-reload`. The default configuration also takes over the
/// untagged units of earlier versions (`notif-ID.timer`): it removes them when it writes or
/// cancels its own.
public struct SystemdTimerGateway: LocalNotificationGateway {
    public let name = "systemd"
    let runner: any ProcessRunner
    /// `~/.config/systemd/user`.
    public let unitDirectory: String
    /// `~/.local/share/systemd/timers`, where a user manager keeps `stamp-UNIT` files.
    let stampDirectory: String
    /// `~/.config`, given to systemctl so it edits the same directory.
    let configHome: String
    let owner: ConfigurationID
    /// The system zone (/etc/localtime): the user's zone when `TZ` is unset, and the one the
    /// user manager runs timers in unless it has a `TZ` of its own.
    let systemZone: @Sendable () -> ZoneRules
    /// The zone of the manager's own `TZ`, nil when it runs in the system zone (`SystemdManagerZone`).
    let managerOwnZone: @Sendable () -> ZoneRules?
    let clock: any WallClock
    let managerRunning: @Sendable () -> Bool
    let timeout: Double

    public init(runner: any ProcessRunner, paths: NotifPaths, owner: ConfigurationID, systemZone: @escaping @Sendable () -> ZoneRules = { .utc },
                managerOwnZone: @escaping @Sendable () -> ZoneRules? = { nil },
                clock: any WallClock = SystemClock(), managerRunning: @escaping @Sendable () -> Bool, timeout: Double = 30) {
        self.runner = runner
        configHome = Posix.join(paths.home, ".config")
        unitDirectory = Posix.join(configHome, "systemd/user")
        stampDirectory = Posix.join(paths.home, ".local/share/systemd/timers")
        self.owner = owner
        self.systemZone = systemZone
        self.managerOwnZone = managerOwnZone
        self.clock = clock
        self.managerRunning = managerRunning
        self.timeout = timeout
    }

    // MARK: Reading (files only: no process)

    public func installed() throws(GatewayError) -> [String: String] {
        // Each unit file read once: the timer and service texts by id, this configuration's and
        // (for the default one) the untagged ones of an earlier notif, then combined.
        var tagged: [String: (timer: String?, service: String?)] = [:]
        var untagged: [String: (timer: String?, service: String?)] = [:]
        for name in try unitFileNames() {
            guard let (id, tag) = SystemdUnits.parse(unitName: name), owner.owns(tag: tag) else { continue }
            guard let text = try ownFile(path(name)) else { continue }
            let isTimer = name.hasSuffix(".timer")
            func add(_ units: inout [String: (timer: String?, service: String?)]) {
                if isTimer { units[id, default: (nil, nil)].timer = text } else { units[id, default: (nil, nil)].service = text }
            }
            if tag == nil { add(&untagged) } else { add(&tagged) }
        }
        var result: [String: String] = [:]
        for (id, pair) in tagged {
            result[id] = Self.combined(timer: pair.timer, service: pair.service, enabled: isEnabled(SystemdUnits.timerName(id, tag: owner.tag)))
                + (untagged[id] != nil ? Self.untaggedNote : "")
        }
        for (id, pair) in untagged where tagged[id] == nil {
            result[id] = Self.untaggedNote + Self.combined(timer: pair.timer, service: pair.service, enabled: isEnabled(SystemdUnits.timerName(id, tag: nil)))
        }
        return result
    }

    /// How `installed()` marks units of an earlier notif (untagged), so they never look current.
    static let untaggedNote = "(untagged units of an earlier notif)\n"

    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        Self.combined(timer: timer(for: entry), service: try SystemdUnits.service(for: entry), enabled: true)
    }

    func timer(for entry: ScheduledEntry) -> String {
        SystemdUnits.timer(for: entry, owner: owner, calendars: SystemdUnits.calendars(for: entry, systemZone: systemZone(), managerOwnZone: managerOwnZone(),
                                                                                     now: clock.now()))
    }

    /// What `installed()` reports for one reminder: both files and whether the timer is enabled.
    static func combined(timer: String?, service: String?, enabled: Bool) -> String {
        "[timer]\n" + (timer ?? "(missing)\n") + "[service]\n" + (service ?? "(missing)\n") + (enabled ? "" : "(not enabled)\n")
    }

    public func entry(_ id: String, installed text: String, userZone: ZoneRules) -> InstalledEntry {
        // Only untagged units of an earlier notif are there when the text starts with the note.
        let tag = text.hasPrefix(Self.untaggedNote) ? nil : owner.tag
        let execStart = text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }
        // The TZ the service gives `notif deliver`: its own, or the system zone when it drops the manager's.
        let zone = execStart.flatMap { CommandWords.assignments(CommandWords.systemd(execStart: String($0.dropFirst("ExecStart=".count))))["TZ"] }
            ?? (text.contains("\n" + SystemdUnits.unsetZone + "\n") ? systemZone().name : nil)
        return InstalledEntry(id: id, current: false, enabled: isEnabled(SystemdUnits.timerName(id, tag: tag)),
                              program: SystemdUnits.conditionProgram(inService: text),
                              firing: firing(text, userZone: userZone, time: LocalReminders.reminder(id: id)?.time), zoneVariable: zone)
    }

    /// The installed timer's calendars, and the reminder's time in `userZone`.
    func firing(_ installed: String, userZone: ZoneRules, time: DailyTime? = nil) -> EntryFiring? {
        let calendars = SystemdUnits.calendars(inTimer: installed).map(SystemdCalendar.init(parsing:))
        guard !calendars.isEmpty else { return nil }
        return EntryFiring(.systemd(calendars: calendars, managerZone: (managerOwnZone() ?? systemZone()).name),
                           wanted: time.map { WantedTime(time: $0, zone: userZone.name) },
                           earlierNotif: installed.hasPrefix(Self.untaggedNote))
    }

    // MARK: Changing

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let id = entry.reminder.id
        let timerName = SystemdUnits.timerName(id, tag: owner.tag)
        var changed = false
        // The service first, so the timer never names a unit that is not there yet.
        let files = [(path(SystemdUnits.serviceName(id, tag: owner.tag)), try SystemdUnits.service(for: entry)),
                     (path(timerName), timer(for: entry))]
        for (path, text) in files {
            let current = try ownFile(path)
            if current == text { continue }
            if current == nil && exists(path) {
                throw GatewayError("cannot replace \(path): it was not written by notif (its first line is not notif's marker); rename or remove it")
            }
            try write(text, to: path)
            changed = true
        }
        let serviceName = SystemdUnits.serviceName(id, tag: owner.tag)
        let enabled = isEnabled(timerName) && linksToUnit(loginLink(serviceName), serviceName)
        if changed || !enabled {
            // The timer, and the service itself at each login (`default.target`).
            try systemctl(["enable", timerName, serviceName], offline: true)
            if managerRunning() {
                let stillTrue = "; the timer files are written and enabled, so the timer starts with your next login"
                try systemctl(["daemon-reload"], offline: false, stillTrue: stillTrue)
                try systemctl(["start", timerName], offline: false, stillTrue: stillTrue)
            }
        }
        // The default configuration's units replace the untagged ones of an earlier notif.
        if owner.isDefault { try removeUnits(named: SystemdUnits.baseName(id, tag: nil)) }
    }

    public func cancel(_ id: String) throws(GatewayError) {
        try removeUnits(named: SystemdUnits.baseName(id, tag: owner.tag))
        if owner.isDefault { try removeUnits(named: SystemdUnits.baseName(id, tag: nil)) }
    }

    // MARK: Every configuration's units (`notif reset --entries`)

    /// The base names (`notif-ID-TAG`, `notif-ID`) of every configuration's units here: unit files
    /// notif wrote, and enable links and timer stamps that outlived them (for those, only names
    /// with a configuration's tag or a reminder id notif knows: a link of the user's own
    /// `notif-backup.timer` is not notif's).
    public func everyUnitBase() throws(GatewayError) -> [String] {
        var bases = Set<String>()
        for name in try unitFileNames() where SystemdUnits.parse(unitName: name) != nil {
            if try ownFile(path(name)) != nil { bases.insert(String(name.dropLast(name.hasSuffix(".timer") ? ".timer".count : ".service".count))) }
        }
        let known = Set(LocalReminders.all.map(\.id))
        func leftover(_ name: String, suffix: String = ".timer") {
            guard name.hasSuffix(suffix), let (id, tag) = SystemdUnits.parse(unitName: name), tag != nil || known.contains(id) else { return }
            bases.insert(String(name.dropLast(suffix.count)))
        }
        try GatewayError.files { () throws(FileError) in
            try FileIO.names(in: Posix.join(unitDirectory, "timers.target.wants")).filter { $0.hasPrefix("notif-") }.forEach { leftover($0) }
            try FileIO.names(in: Posix.join(unitDirectory, "default.target.wants")).filter { $0.hasPrefix("notif-") }.forEach { leftover($0, suffix: ".service") }
            try FileIO.names(in: stampDirectory).filter { $0.hasPrefix("stamp-notif-") }.forEach { leftover(String($0.dropFirst("stamp-".count))) }
        }
        return bases.sorted()
    }

    /// The words of `BASE.service`'s `ExecStart=` when notif wrote that service.
    public func serviceCommand(_ base: String) -> [String]? {
        guard let text = try? ownFile(path(base + ".service")) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }
        return line.map { CommandWords.systemd(execStart: String($0.dropFirst("ExecStart=".count))) }
    }

    /// Stops, disables and removes `BASE.timer` and `BASE.service` when notif wrote them, and the
    /// timer's stamp, whatever configuration they belong to. Returns whether any of them was there.
    @discardableResult
    public func removeUnits(named base: String) throws(GatewayError) -> Bool {
        let timerName = base + ".timer", serviceName = base + ".service"
        let timer = path(timerName), service = path(serviceName), link = wantsLink(timerName), stamp = stampPath(timerName)
        let login = loginLink(serviceName)
        let timerOurs = (try ownFile(timer)) != nil
        let serviceOurs = (try ownFile(service)) != nil
        // A timer of that name that notif did not write is the user's: leave it, its link and its stamp.
        let timerForeign = !timerOurs && exists(timer)
        let linked = !timerForeign && linksToUnit(link, timerName)
        let stamped = !timerForeign && exists(stamp)
        let serviceForeign = !serviceOurs && exists(service)
        let loginLinked = !serviceForeign && linksToUnit(login, serviceName)
        guard timerOurs || serviceOurs || linked || stamped || loginLinked else { return false }
        let manager = managerRunning()
        if manager && (timerOurs || serviceOurs) {
            try systemctl(["stop", timerName, serviceName], offline: false,
                          stillTrue: "; nothing was removed", tolerate: Self.notLoaded)
            // Best effort: the stamp file is removed below in any case.
            _ = try? systemctl(["clean", "--what=state", timerName], offline: false)
        }
        if timerOurs || serviceOurs {
            do {
                try systemctl(["disable"] + (timerOurs ? [timerName] : []) + (serviceOurs ? [serviceName] : []), offline: true,
                              stillTrue: "; nothing was removed")
            } catch where error.schedulerMissing {
                if linked { try remove(link) }
            }
        }
        if linked && exists(link) { try remove(link) }
        if loginLinked && exists(login) { try remove(login) }
        if timerOurs { try remove(timer) }
        if serviceOurs { try remove(service) }
        if stamped { try remove(stamp) }
        if manager && (timerOurs || serviceOurs) {
            try systemctl(["daemon-reload"], offline: false,
                          stillTrue: "; the timer files are removed, so it no longer runs after the next login")
        }
        return true
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
            result = try runner.run(argv, input: nil, environment: offline ? ["SYSTEMD_OFFLINE": "1", "XDG_CONFIG_HOME": configHome] : [:], timeout: timeout)
        } catch {
            throw error.notFound
                ? GatewayError("systemctl is not installed (Debian: apt install systemd)", schedulerMissing: true)
                : GatewayError(error.description)
        }
        if result.succeeded || tolerate(result) { return }
        throw GatewayError("`\(argv.joined(separator: " "))` failed (\(result.failureSummary))\(stillTrue)")
    }

    // MARK: Files

    func path(_ unitName: String) -> String { Posix.join(unitDirectory, unitName) }
    func wantsLink(_ timerName: String) -> String { Posix.join(unitDirectory, "timers.target.wants/" + timerName) }
    /// The link that starts the service at each login (`systemctl enable` of `WantedBy=default.target`).
    func loginLink(_ serviceName: String) -> String { Posix.join(unitDirectory, "default.target.wants/" + serviceName) }
    func stampPath(_ timerName: String) -> String { Posix.join(stampDirectory, "stamp-" + timerName) }

    /// Enabled: the `timers.target.wants` link exists (whatever it points to).
    func isEnabled(_ timerName: String) -> Bool { (try? FileStatus.of(wantsLink(timerName), followLinks: false)) != nil }

    /// Whether `link` is a symlink to a unit named `timerName` (what `systemctl enable` makes): only
    /// such a link is removed, never a file of that name.
    func linksToUnit(_ link: String, _ timerName: String) -> Bool {
        FileIO.symlinkTarget(link).map { Posix.baseName(of: $0) == timerName } ?? false
    }

    private func exists(_ path: String) -> Bool { (try? FileStatus.of(path, followLinks: false)) != nil }

    /// The text of a unit file notif wrote, nil when missing or not notif's. A file that is not the
    /// user's own is not read: another user (or a run as root) wrote it, so it is not notif's.
    private func ownFile(_ path: String) throws(GatewayError) -> String? {
        let bytes = try GatewayError.files { () throws(FileError) -> [UInt8]? in
            guard try FileStatus.of(path)?.owner == geteuid() else { return nil }
            return try FileIO.read(path, limit: 1 << 16)
        }
        guard let bytes else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasPrefix(SystemdUnits.marker + "\n") ? text : nil
    }

    private func write(_ text: String, to path: String) throws(GatewayError) {
        try GatewayError.files { () throws(FileError) in
            try FileIO.makeDirectory(unitDirectory)
            try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644)
        }
    }

    private func remove(_ path: String) throws(GatewayError) {
        try GatewayError.files { () throws(FileError) in try FileIO.remove(path) }
    }

    private func unitFileNames() throws(GatewayError) -> [String] {
        return try GatewayError.files { () throws(FileError) in try FileIO.names(in: unitDirectory).filter { $0.hasPrefix("notif-") } }
    }
}
