import SharedLogic
import Storage

/// The built-in scheduler: one file per reminder and configuration in
/// `$XDG_STATE_HOME/notif/embedded/` (`ID.TAG`, TAG: the `ConfigurationID`'s), written
/// atomically, shown at its time by `notif daemon` (which must be running for anything to
/// fire). The default configuration takes over the untagged files of earlier versions (`ID`).
public struct EmbeddedScheduler: LocalNotificationGateway {
    public let name = "embedded"
    public let directory: String
    let owner: ConfigurationID

    /// The daemon's lock file in the state directory: held while `notif daemon` runs.
    public static let daemonLockName = "daemon.lock"

    public init(paths: NotifPaths, owner: ConfigurationID) {
        directory = paths.stateFile("embedded")
        self.owner = owner
    }

    /// This configuration's entries by reminder id; an untagged file taken over is reported with
    /// a first line saying so, so it never looks current and is rewritten.
    public func installed() throws(GatewayError) -> [String: String] {
        var tagged: [String: String] = [:], untagged: [String: String] = [:]
        for name in try fileNames() {
            let (id, tag) = EmbeddedEntry.parse(fileName: name)
            guard owner.owns(tag: tag), let text = try read(name) else { continue }
            if tag == nil { untagged[id] = text } else { tagged[id] = text }
        }
        var result = tagged
        for (id, text) in untagged { result[id] = Self.untaggedNote + (tagged[id] ?? text) }
        return result
    }

    /// How `installed()` marks an entry that has an untagged file of an earlier notif.
    static let untaggedNote = "(an untagged entry of an earlier notif)\n"

    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        try checked(entry.reminder.id)
        if let zone = entry.zoneVariable, zone.contains("\n") || zone.contains("\r") {
            throw GatewayError("cannot keep TZ \(zone.debugDescription) in the built-in schedule: it holds a line break")
        }
        let weekday: Weekday? = if case .weekly(let day) = entry.reminder.recurrence { day } else { nil }
        return EmbeddedEntry(id: entry.reminder.id, time: entry.reminder.time, zone: entry.zoneVariable, weekday: weekday).text
    }

    /// The installed file's time, weekday and zone.
    public func entry(_ id: String, installed text: String, userZone: ZoneRules) -> InstalledEntry {
        InstalledEntry(id: id, current: false, firing: firing(text, userZone: userZone, time: LocalReminders.reminder(id: id)?.time),
                       zoneVariable: EmbeddedEntry(parsing: text)?.zone)
    }

    /// The time, weekday and zone the installed entry keeps, and the reminder's time in `userZone`.
    func firing(_ installed: String, userZone: ZoneRules? = nil, time: DailyTime? = nil) -> EntryFiring? {
        guard let entry = EmbeddedEntry(parsing: installed) else { return nil }
        return EntryFiring(.embedded(time: entry.time, weekday: entry.weekday, zone: entry.zone),
                           wanted: time.flatMap { time in userZone.map { WantedTime(time: time, zone: $0.name) } },
                           earlierNotif: installed.hasPrefix(Self.untaggedNote))
    }

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let text = try render(entry)
        try GatewayError.files { () throws(FileError) in
            try FileIO.makeDirectory(directory)
            try AtomicFile.write(Array(text.utf8), to: path(entry.reminder.id, tag: owner.tag))
            if owner.isDefault { try FileIO.remove(path(entry.reminder.id, tag: nil)) }
        }
    }

    public func cancel(_ id: String) throws(GatewayError) {
        try checked(id)
        try GatewayError.files { () throws(FileError) in
            try FileIO.remove(path(id, tag: owner.tag))
            if owner.isDefault { try FileIO.remove(path(id, tag: nil)) }
        }
    }

    /// Removes the entries of every configuration in this directory (tagged or not, whoever's
    /// they are: the directory is notif's); files that are not entries stay. Returns the
    /// removed files' names and what could not be read or removed.
    public func removeEveryEntry() -> (removed: [String], problems: [String]) {
        var removed: [String] = [], problems: [String] = []
        let names: [String]
        do {
            names = try fileNames()
        } catch {
            return ([], [error.message])
        }
        for name in names.sorted() {
            let text: String?
            do {
                text = try read(name)
            } catch {
                problems.append(error.message)
                continue
            }
            guard let text, EmbeddedEntry(parsing: text) != nil else { continue }
            do {
                try FileIO.remove(Posix.join(directory, name))
                removed.append(name)
            } catch {
                problems.append(error.description)
            }
        }
        return (removed, problems)
    }

    /// The entries `notif daemon` runs for this configuration; files that are not entries are
    /// skipped, and an untagged file only counts while there is no tagged one.
    public func entries() throws(GatewayError) -> [EmbeddedEntry] {
        try installed().sorted { $0.key < $1.key }.compactMap { EmbeddedEntry(parsing: $0.value) }
    }

    /// The directory's identity and modification time: a cheap way to notice any change to it.
    public func stamp() -> FileStatus? { try? FileStatus.of(directory) }

    /// `embedded/ID.TAG`, or the untagged `embedded/ID`.
    func path(_ id: String, tag: String?) -> String { Posix.join(directory, EmbeddedEntry.fileName(id, tag: tag)) }

    private func checked(_ id: String) throws(GatewayError) {
        guard EmbeddedEntry.isValidID(id) else {
            throw GatewayError("cannot use \(id.debugDescription) as a built-in schedule entry: ids are letters, digits, '-', '_' and '.'")
        }
    }

    private func read(_ name: String) throws(GatewayError) -> String? {
        let bytes = try GatewayError.files { () throws(FileError) in try FileIO.read(Posix.join(directory, name), limit: 1 << 16, own: true) }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Entry file names (temporary files of an interrupted write start with a dot and are skipped).
    private func fileNames() throws(GatewayError) -> [String] {
        return try GatewayError.files { () throws(FileError) in try FileIO.names(in: directory).filter { EmbeddedEntry.isValidID($0) } }
    }
}
