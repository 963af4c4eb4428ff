import SharedLogic
import Storage

/// The configuration list on disk: `configurations` in the default state directory of HOME
/// (`~/.local/state/notif/`), which no `XDG_*` variable moves, so every configuration's run
/// finds the same file. (HOME, not the password database's home: a run with another HOME, a
/// test sandbox say, keeps its own list there and never touches the account's.) Changed under `flock` on
/// `configurations.lock` by re-reading and rewriting atomically, so two processes that add
/// their lines at once both keep them.
public struct ConfigurationListFile: Sendable {
    public let directory: String

    /// The list in the default state directory of `home`.
    public init(home: String) { directory = NotifPaths(home: home, configHome: "/", stateHome: Posix.join(home, ".local/state")).stateDirectory }

    public var path: String { Posix.join(directory, "configurations") }
    var lockPath: String { Posix.join(directory, "configurations.lock") }
    /// Far more than any user's configurations need (a few hundred bytes each).
    static let limit = 1 << 20

    /// The list; an empty one when there is no file.
    public func read() throws(FileError) -> ConfigurationList {
        guard let bytes = try FileIO.read(path, limit: Self.limit, own: true) else { return ConfigurationList() }
        return ConfigurationList(parsing: bytes)
    }

    /// Takes the list's lock (exclusive), making its directory. An apply holds it from adding its
    /// record until its entries are written, and `reset --entries` for its whole run, so a reset
    /// never drops the record of entries written while it looked.
    public func lock() throws(FileError) -> HeldLock {
        try FileIO.makeDirectory(directory)
        return try FileLock.acquire(lockPath)
    }

    /// Adds `record` unless it is there (then nothing is written). `held`: the lock, when the
    /// caller holds it already.
    public func add(_ record: ConfigurationRecord, holding held: HeldLock? = nil) throws(FileError) {
        try change(holding: held) { $0.adding(record) }
    }

    /// Drops the records in `gone` (another process's lines, and lines that are not records,
    /// stay); the file goes when nothing is left.
    public func remove(_ gone: Set<ConfigurationRecord>, holding held: HeldLock? = nil) throws(FileError) {
        guard !gone.isEmpty else { return }
        try change(holding: held) { list in
            let left = list.removing(gone)
            return left == list ? nil : left
        }
    }

    /// Reads the list under the lock (taken here unless `held`) and writes what `edit` returns
    /// (nil: no change).
    private func change(holding held: HeldLock?, _ edit: (ConfigurationList) -> ConfigurationList?) throws(FileError) {
        let taken = held == nil ? try lock() : nil
        defer { taken?.release() }
        guard let changed = edit(try read()) else { return }
        if changed.isEmpty {
            try FileIO.remove(path)
        } else {
            try AtomicFile.write(changed.bytes, to: path)
        }
    }
}

extension ReminderService {
    /// The configuration list of this user, under HOME (the password database's when HOME is unset).
    public var configurationList: ConfigurationListFile {
        ConfigurationListFile(home: context.paths.home)
    }

    /// This run's configuration as the list records it.
    var configurationRecord: ConfigurationRecord {
        let paths = context.paths
        return ConfigurationRecord(settings: paths.settingsFile, tag: context.configuration.tag, home: paths.home,
                                   configHome: paths.configHome, stateHome: paths.stateHome)
    }

    /// Puts this configuration on the list before its entries are written, so
    /// `notif reset --entries` finds them whatever variables it runs with. A warning when it
    /// could not (the entries are written anyway: a reset run with this configuration's
    /// variables still finds them).
    public func recordConfiguration() -> String? {
        listConfiguration().warning
    }

    /// As `recordConfiguration`, keeping the list's lock for the caller to release once its
    /// entries are written (nil when the lock could not be taken).
    func listConfiguration() -> (held: HeldLock?, warning: String?) {
        let list = configurationList
        var held: HeldLock?
        do {
            held = try list.lock()
            try list.add(configurationRecord, holding: held)
            return (held, nil)
        } catch {
            return (held, "\(error); `notif reset --entries` finds this configuration's entries only when run with its XDG_CONFIG_HOME and XDG_STATE_HOME")
        }
    }
}
