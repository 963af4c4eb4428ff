import Glibc
import SharedLogic
import Storage

/// A place `notif daemon` watches for changes: a directory and the names in it that matter, or
/// one file itself (the `/etc/localtime` link).
public struct WatchedPlace: Hashable, Sendable {
    public enum Names: Hashable, Sendable {
        /// Only these names in the directory.
        case only(Set<String>)
        /// Every name that does not start with a dot (temporary files of atomic writes do).
        case visible
    }

    public var path: String
    /// nil: `path` is a file (or link), watched itself; any event on it matters.
    public var names: Names?
    /// Only a finished write to a name matters (closed after writing, or renamed into place),
    /// not its creation, truncation or a write on the way: settings.json, which people and their
    /// tools write in place, is read when they are done.
    public var finishedWritesOnly = false

    public init(directory: String, names: Names, finishedWritesOnly: Bool = false) {
        self.path = directory
        self.names = names
        self.finishedWritesOnly = finishedWritesOnly
    }

    public init(file: String) {
        self.path = file
        self.names = nil
    }

    /// Whether an event about `name` (a name inside the directory) matters; `finishedWrite`:
    /// the event is a close after writing or a rename into place.
    public func matters(_ name: String, finishedWrite: Bool = true) -> Bool {
        if finishedWritesOnly && !finishedWrite { return false }
        switch names {
        case nil: return true
        case .visible: return !name.isEmpty && !name.hasPrefix(".")
        case .only(let wanted): return wanted.contains(name)
        }
    }
}

/// What `notif daemon` watches, so that nothing but a change or its next reminder wakes it:
/// the time zone (`/etc/localtime` itself, as a link, and the directory of the file it leads to;
/// or the file `TZ` names), `settings.json` (and, when it is a link, its target's directory),
/// and the built-in schedule's directory. A directory that does not exist yet is watched through
/// the nearest one that does, for the name that would lead to it.
public enum DaemonWatches {
    public static func places(paths: NotifPaths, tz: String?, zoneInfoDirectory: String? = nil) -> [WatchedPlace] {
        var places: [WatchedPlace] = []
        places += zone(tz: tz, zoneInfoDirectory: zoneInfoDirectory)
        places += file(paths.settingsFile, finishedWritesOnly: true)
        places.append(directory(paths.stateFile("embedded")))   // EmbeddedScheduler.directory
        places.append(waiters(paths: paths))
        var seen = Set<WatchedPlace>()
        return places.filter { seen.insert($0).inserted }
    }

    /// The reminders' wait locks: a waiter holds its lock open for writing, so its end (shown,
    /// given up, killed) is a finished write there; the lock probes of `status` and the daemon
    /// open it read-only and wake nothing.
    static func waiters(paths: NotifPaths) -> WatchedPlace {
        guard (try? FileStatus.of(paths.stateDirectory))??.kind == .directory else { return nearest(paths.stateDirectory) }
        return WatchedPlace(directory: paths.stateDirectory, names: .only(Set(LocalReminders.all.map { StateFiles.waitLock($0.id) })),
                            finishedWritesOnly: true)
    }

    /// The zone's files: none for a POSIX TZ string or UTC.
    static func zone(tz: String?, zoneInfoDirectory: String?) -> [WatchedPlace] {
        guard var spec = tz else {
            let link = SystemTimeZone.localTimeFile
            guard (try? FileStatus.of(link, followLinks: false)) != nil else { return [nearest(link)] }
            return [WatchedPlace(file: link)] + file(link).filter { $0.path != Posix.directory(of: link) }
        }
        if spec.hasPrefix(":") { spec.removeFirst() }
        guard !spec.isEmpty, let path = SystemTimeZone.zoneFilePath(for: spec, zoneInfoDirectory: zoneInfoDirectory) else { return [] }
        // A name that is no file is a POSIX TZ string (`EST5EDT`), which cannot change.
        guard spec.hasPrefix("/") || (try? FileStatus.of(path)) != nil else { return [] }
        return file(path)
    }

    /// A file that is replaced by rename (as notif and dpkg write files): its directory, for its
    /// name; when it is a link, also the directory of the file it leads to, for that name.
    /// - Parameter finishedWritesOnly: only finished writes to the file matter (see `WatchedPlace`).
    static func file(_ path: String, finishedWritesOnly: Bool = false) -> [WatchedPlace] {
        var places = [nearest(path)]
        // Watched from its own directory: its writes; from further up, the directory appearing.
        if places[0].path == Posix.directory(of: path) { places[0].finishedWritesOnly = finishedWritesOnly }
        if let target = Posix.resolved(path), target != path {
            places.append(WatchedPlace(directory: Posix.directory(of: target), names: .only([Posix.baseName(of: target)]),
                                       finishedWritesOnly: finishedWritesOnly))
        }
        return places
    }

    /// A directory whose entries all matter, or the nearest existing parent for the name leading to it.
    static func directory(_ path: String) -> WatchedPlace {
        if (try? FileStatus.of(path))??.kind == .directory { return WatchedPlace(directory: path, names: .visible) }
        return nearest(path)
    }

    /// The nearest existing directory above `path`, for the name of the step towards `path`.
    static func nearest(_ path: String) -> WatchedPlace {
        var child = path
        var parent = Posix.directory(of: path)
        while parent != "/" && (try? FileStatus.of(parent))??.kind != .directory {
            child = parent
            parent = Posix.directory(of: parent)
        }
        return WatchedPlace(directory: parent, names: .only([Posix.baseName(of: child)]))
    }
}
