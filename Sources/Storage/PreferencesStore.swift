import Glibc
import SharedLogic

/// Settings as read from disk, with the document they came from (so unknown keys survive a rewrite).
public struct LoadedPreferences: Equatable, Sendable {
    public var preferences: NotificationPreferences
    /// The parsed file, or nil when there was none (or it was moved aside).
    public var document: JSONValue?
    /// Something the person should be told, e.g. where a corrupt file went.
    public var notice: String?
    /// Whether a settings file was there (notif's first start has none).
    public var fileExisted: Bool { document != nil }
}

/// A settings problem that stops a command; each message names the file.
public enum PreferencesError: Error, Equatable, Sendable, CustomStringConvertible {
    case file(FileError)
    case newerVersion(path: String, version: Int)
    case cannotMoveAside(path: String, problem: String, error: FileError)

    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .newerVersion(let path, let version):
            return "\(path) has version \(version), newer than this notif understands (\(NotificationPreferences.schemaVersion)); it was left unchanged. Update notif to use it."
        case .cannotMoveAside(let path, let problem, let error):
            return "\(path) is not valid (\(problem)) and could not be moved aside (\(error.reason)); fix or remove it"
        }
    }
}

/// settings.json: read with corruption handled, written atomically under a lock, 0600 in a 0700 directory.
public struct PreferencesStore: Sendable {
    public let paths: NotifPaths
    public let clock: any WallClock
    /// The toggles the file holds (`NotifCatalog.standard` unless a test passes a longer table).
    public var catalog: NotifCatalog = .standard

    public init(paths: NotifPaths, clock: any WallClock = SystemClock()) {
        self.paths = paths
        self.clock = clock
    }

    /// The file actually read and written: settings.json, or the file it links to (for the
    /// page's watch; a link that is not followed gives settings.json itself).
    public var settingsPath: String { (try? resolvedSettingsPath()) ?? paths.settingsFile }

    /// settings.json, or the file it links to. A link is followed only when it and what it
    /// leads to are this user's (a dotfiles link); a link another user made, or one into a
    /// directory that is not this user's, is refused: notif would read, rename or create a file
    /// wherever it points, with the rights of whoever runs it.
    public func resolvedSettingsPath() throws(PreferencesError) -> String {
        var path = paths.settingsFile
        for _ in 0..<8 {
            let status: FileStatus?
            do { status = try FileStatus.of(path, followLinks: false) } catch { throw .file(error) }
            guard let status, status.kind == .symlink else { break }
            if status.owner != geteuid() {
                throw .file(FileError("follow", path, code: EPERM,
                                      reason: "it is a link that belongs to \(Posix.userName(status.owner)) (uid \(status.owner)), not to you; notif follows only your own links: remove it"))
            }
            guard let target = FileIO.symlinkTarget(path) else { break }
            path = target
        }
        if (try? FileStatus.of(path, followLinks: false))??.kind == .symlink {
            throw .file(FileError("read", paths.settingsFile, code: ELOOP))   // a loop, or too long a chain
        }
        guard path != paths.settingsFile else { return path }
        // The end of the chain: the file when it exists, else the directory it would be made in.
        let existing: (String, FileStatus?)
        do {
            let status = try FileStatus.of(path, followLinks: false)
            existing = status != nil ? (path, status) : (Posix.directory(of: path), try FileStatus.of(Posix.directory(of: path)))
        } catch {
            throw .file(error)
        }
        if let status = existing.1, status.owner != geteuid() {
            let what = existing.0 == path ? "it leads to a file" : "it leads into \(existing.0)"
            throw .file(FileError("follow", "\(paths.settingsFile) (a link to \(path))", code: EPERM,
                                  reason: "\(what) that belongs to \(Posix.userName(status.owner)) (uid \(status.owner)); notif follows a link only to your own files: remove the link or point it at a file of yours"))
        }
        return path
    }

    /// The saved settings. A file that does not parse or has wrong types is renamed to
    /// `settings.json.corrupt-<UTC stamp>` and the defaults are returned with a notice.
    public func load() throws(PreferencesError) -> LoadedPreferences {
        let path = try resolvedSettingsPath()
        switch try readAndDecode(path) {
        case .ok(let loaded):
            return loaded
        case .corrupt(let problem, let identity):
            let lock = try takeLock()
            defer { lock.release() }
            // Another process may have moved or replaced it meanwhile: then read again.
            guard (try? FileStatus.of(path)) == identity else {
                lock.release()
                return try load()
            }
            return try moveAside(path, problem: problem)
        }
    }

    /// Read-modify-write under the settings lock. Writes only when `change` changed something.
    @discardableResult
    public func update(_ change: (inout NotificationPreferences) -> Void) throws(PreferencesError) -> (before: LoadedPreferences, after: NotificationPreferences) {
        try ensureDirectory()
        let lock = try takeLock()
        defer { lock.release() }
        let path = try resolvedSettingsPath()
        var loaded: LoadedPreferences
        switch try readAndDecode(path) {
        case .ok(let ok): loaded = ok
        case .corrupt(let problem, _): loaded = try moveAside(path, problem: problem)
        }
        var after = loaded.preferences
        change(&after)
        if after != loaded.preferences || !loaded.fileExisted {
            try write(after, over: loaded.document, to: path)
        }
        return (loaded, after)
    }

    private enum ReadResult {
        case ok(LoadedPreferences)
        /// What is wrong, and the file's identity when it was read.
        case corrupt(String, FileStatus?)
    }

    private func readAndDecode(_ path: String) throws(PreferencesError) -> ReadResult {
        let bytes: [UInt8]
        let identity = try? FileStatus.of(path)
        do {
            guard let read = try FileIO.read(path, limit: Self.sizeLimit, own: true) else {
                return .ok(LoadedPreferences(preferences: NotificationPreferences(), document: nil, notice: nil))
            }
            bytes = read
        } catch {
            if error.code == EFBIG { return .corrupt(error.reason, identity) }
            throw .file(named(error, path))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return .corrupt("not valid JSON: \(error)", identity)
        }
        do {
            let preferences = try PreferencesCodec.decode(document, catalog: catalog)
            return .ok(LoadedPreferences(preferences: preferences, document: document, notice: nil))
        } catch {
            if case .newerVersion(let version) = error { throw .newerVersion(path: path, version: version) }
            return .corrupt(error.description, identity)
        }
    }

    /// An error about the file settings.json links to, naming settings.json too: "cannot read
    /// /dev/null" alone would not say which setting file is meant.
    private func named(_ error: FileError, _ path: String) -> FileError {
        guard path != paths.settingsFile else { return error }
        return FileError(error.action, "\(paths.settingsFile) (a link to \(path))", code: error.code, reason: error.reason)
    }

    /// Settings files notif writes are a few hundred bytes; anything this big is not one.
    static let sizeLimit = 1 << 20

    private func moveAside(_ path: String, problem: String) throws(PreferencesError) -> LoadedPreferences {
        let stamp = clock.now().compactUTCStamp
        var target = path + ".corrupt-" + stamp
        var suffix = 1
        while (try? FileStatus.of(target, followLinks: false)) != nil {
            target = path + ".corrupt-" + stamp + "-\(suffix)"
            suffix += 1
        }
        if rename(path, target) != 0 {
            throw .cannotMoveAside(path: path, problem: problem, error: FileError("rename", path))
        }
        AtomicFile.syncDirectory(Posix.directory(of: path))
        let notice = "\(path) was not valid (\(problem)); it was moved to \(target) and the defaults are used"
        return LoadedPreferences(preferences: NotificationPreferences(), document: nil, notice: notice)
    }

    private func write(_ preferences: NotificationPreferences, over document: JSONValue?, to path: String) throws(PreferencesError) {
        let text = JSONWriter.pretty(PreferencesCodec.encode(preferences, over: document, catalog: catalog))
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw .file(named(error, path))
        }
    }

    /// notif's own config directory (which holds the lock). When settings.json is a symlink,
    /// the directory it points into is the link owner's business: it is never created here, so
    /// a dangling link fails with a message naming the path instead of making directories elsewhere.
    private func ensureDirectory() throws(PreferencesError) {
        do {
            try FileIO.makeDirectory(paths.configDirectory)
        } catch {
            throw .file(error)
        }
    }

    private func takeLock() throws(PreferencesError) -> HeldLock {
        do {
            return try FileLock.acquire(paths.settingsLock)
        } catch {
            throw .file(error)
        }
    }
}
