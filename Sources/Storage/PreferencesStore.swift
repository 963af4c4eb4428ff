import Glibc
import SharedLogic

/// Settings as read from disk, with the document they came from (so unknown keys survive a rewrite).
public struct LoadedPreferences: Equatable, Sendable {
    public var preferences: NotificationPreferences
    /// The parsed file, or nil when there was none.
    public var document: JSONValue?
    /// The file's bytes as read, or nil when there was none.
    public var bytes: [UInt8]?
    /// Whether a settings file was there (notif's first start has none).
    public var fileExisted: Bool { document != nil }

    public init(preferences: NotificationPreferences, document: JSONValue? = nil, bytes: [UInt8]? = nil) {
        self.preferences = preferences
        self.document = document
        self.bytes = bytes
    }
}

/// A settings problem that stops a command; each message names the file.
public enum PreferencesError: Error, Equatable, Sendable, CustomStringConvertible {
    case file(FileError)
    case newerVersion(path: String, version: Int)
    /// The file does not parse or holds a wrong value: `problem` says where and how to fix it
    /// (`line 7, column 3: a comma before } — remove it`). The file stays as it is.
    case invalid(path: String, problem: String)
    /// The file changed after it was read for an edit or a reset, so that was not done.
    case changedMeanwhile(path: String)

    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .newerVersion(let path, let version):
            return "\(path) has version \(version), newer than this notif understands (\(NotificationPreferences.schemaVersion)); it was left unchanged. Update notif to use it."
        case .invalid(let path, let problem):
            return path + (problem.hasPrefix("line ") ? " " : ": ") + problem
        case .changedMeanwhile(let path):
            return "\(path) changed meanwhile (another notif, or an editor, wrote it)"
        }
    }

    /// The file is there but its content is not settings notif can use (a mistake to fix by hand).
    public var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}

/// settings.json: read (never moved or rewritten when it does not parse), written atomically under a lock, 0600 in a 0700 directory.
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

    /// The saved settings, or the defaults when there is no file. A file that does not parse or
    /// holds a wrong value is an error (`.invalid`) and is left exactly as it is: it is the
    /// person's file. One that may still be being written (changed less than a second ago, or
    /// open for writing) is read again once that write is finished.
    public func load() throws(PreferencesError) -> LoadedPreferences {
        let path = try resolvedSettingsPath()
        do {
            return try read(path)
        } catch where error.isInvalid {
            return try readWhenQuiet(path)
        }
    }

    /// `load()` for watchers (the page, `notif daemon`): a file that does not parse, or is not
    /// there, is read again once nothing has changed it for `quiet` seconds (an editor or a
    /// script may write in several steps, or save by renaming the old file away first), and
    /// only then believed. Waits `within` seconds at most.
    /// - Parameter missing: whether a missing file is waited for too (false: it means a first start).
    public func loadSettled(quiet: Double = 1, within: Double = 10, missing: Bool = true) throws(PreferencesError) -> LoadedPreferences {
        let path = try resolvedSettingsPath()
        do {
            let loaded = try read(path)
            if loaded.fileExisted || !missing { return loaded }
        } catch {
            guard error.isInvalid else { throw error }
        }
        return try readWhenQuiet(path, quiet: quiet, within: within)
    }

    /// Reads `path` once nothing has changed it for `quiet` seconds and no process holds it open
    /// for writing (`OpenWriters`: a write paused halfway), or `within` seconds have passed. A
    /// file last changed longer ago than `quiet` (its modification time) is quiet already.
    private func readWhenQuiet(_ path: String, quiet: Double = 1, within: Double = 10) throws(PreferencesError) -> LoadedPreferences {
        var stamp = try? FileStatus.of(path)
        let start = SystemClock.monotonicNow()
        var quietSince = start
        func changedLongAgo() -> Bool {
            guard let status = stamp ?? nil else { return false }
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let age = Double(Int64(now.tv_sec) - status.modified) + Double(now.tv_nsec - status.modifiedNanoseconds) / 1e9
            return age >= quiet
        }
        func settled() -> Bool { (SystemClock.monotonicNow() - quietSince >= quiet || changedLongAgo()) && !OpenWriters.any(of: path) }
        while !settled() && SystemClock.monotonicNow() - start < within {
            usleep(50_000)
            let now = try? FileStatus.of(path)
            if now != stamp {
                stamp = now
                quietSince = SystemClock.monotonicNow()
            }
        }
        do {
            return try read(path)
        } catch {
            // Waited long enough: said as it is now, and that someone is still writing it.
            guard case .invalid(let at, let problem) = error, OpenWriters.any(of: path) else { throw error }
            throw .invalid(path: at, problem: problem + "; another process has had it open for writing for \(Int(within)) s, so it may still be being written")
        }
    }

    /// Read-modify-write under the settings lock. Writes only when `change` changed something.
    /// A file that does not parse is read again once it has been quiet a moment (someone may be
    /// writing it in steps); still not parsing, it is not touched: the change fails.
    @discardableResult
    public func update(_ change: (inout NotificationPreferences) -> Void) throws(PreferencesError) -> (before: LoadedPreferences, after: NotificationPreferences) {
        try ensureDirectory()
        let lock = try takeLock()
        defer { lock.release() }
        let path = try resolvedSettingsPath()
        let loaded: LoadedPreferences
        do {
            loaded = try read(path)
        } catch where error.isInvalid {
            loaded = try readWhenQuiet(path)
        }
        var after = loaded.preferences
        change(&after)
        if after != loaded.preferences || !loaded.fileExisted {
            try write(Array(JSONWriter.pretty(PreferencesCodec.encode(after, over: loaded.document, catalog: catalog)).utf8), to: path)
        }
        return (loaded, after)
    }

    /// Replaces the file with `bytes` exactly as given (a person's edit: their spacing, order and
    /// keys notif does not know are kept), atomically and under the lock, when they are valid
    /// settings and the file still holds `expected` (nil: there was no file). Returns the settings.
    @discardableResult
    public func replace(with bytes: [UInt8], expecting expected: [UInt8]?) throws(PreferencesError) -> NotificationPreferences {
        try ensureDirectory()
        let lock = try takeLock()
        defer { lock.release() }
        let path = try resolvedSettingsPath()
        let preferences = try decoded(bytes, path: path).preferences
        guard try currentBytes(path) == expected else { throw .changedMeanwhile(path: path) }
        try write(bytes, to: path)
        return preferences
    }

    /// Puts the defaults in place of a file that does not parse (or holds a wrong value),
    /// keeping the file as it was in a copy beside it (`settings.json.before-reset-<UTC stamp>`),
    /// whose path is returned. A file that reads (fixed meanwhile), or none, is left alone: nil.
    /// The new file marks onboarding as done: a reset is not a first start.
    public func resetInvalidFile() throws(PreferencesError) -> String? {
        try ensureDirectory()
        let lock = try takeLock()
        defer { lock.release() }
        let path = try resolvedSettingsPath()
        let old: [UInt8]
        do {
            _ = try read(path)
            return nil
        } catch {
            guard error.isInvalid else { throw error }
            // The copy keeps every byte, however big the file grew.
            do {
                guard let bytes = try FileIO.read(path, limit: 1 << 28, own: true) else { return nil }
                old = bytes
            } catch {
                throw .file(named(error, path))
            }
        }
        let stamp = clock.now().compactUTCStamp
        var copy = path + ".before-reset-" + stamp
        var suffix = 1
        while (try? FileStatus.of(copy, followLinks: false)) != nil {
            copy = path + ".before-reset-" + stamp + "-\(suffix)"
            suffix += 1
        }
        do {
            try AtomicFile.create(old, at: copy)
        } catch {
            throw .file(error)
        }
        var defaults = NotificationPreferences()
        defaults.onboardingCompleted = true
        do {
            try write(Array(JSONWriter.pretty(PreferencesCodec.encode(defaults, catalog: catalog)).utf8), to: path)
        } catch {
            unlink(copy)   // nothing changed: no copy of a file still in place
            throw error
        }
        return copy
    }

    /// The settings in `path`, or the defaults when there is no file.
    private func read(_ path: String) throws(PreferencesError) -> LoadedPreferences {
        guard let bytes = try currentBytes(path) else { return LoadedPreferences(preferences: NotificationPreferences()) }
        return try decoded(bytes, path: path)
    }

    /// The bytes in `path`, or nil when there is no file.
    private func currentBytes(_ path: String) throws(PreferencesError) -> [UInt8]? {
        do {
            return try FileIO.read(path, limit: Self.sizeLimit, own: true)
        } catch {
            if error.code == EFBIG {
                throw .invalid(path: path, problem: "\(error.reason) — a settings file is a few hundred bytes: restore it, or remove it")
            }
            throw .file(named(error, path))
        }
    }

    private func decoded(_ bytes: [UInt8], path: String) throws(PreferencesError) -> LoadedPreferences {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw .invalid(path: path, problem: error.description)
        }
        do {
            let preferences = try PreferencesCodec.decode(document, catalog: catalog)
            return LoadedPreferences(preferences: preferences, document: document, bytes: bytes)
        } catch {
            if case .newerVersion(let version) = error { throw .newerVersion(path: path, version: version) }
            throw .invalid(path: path, problem: error.located(in: bytes))
        }
    }

    /// An error about the file settings.json links to, naming settings.json too: "cannot read
    /// /dev/null" alone would not say which setting file is meant.
    private func named(_ error: FileError, _ path: String) -> FileError {
        guard path != paths.settingsFile else { return error }
        return FileError(error.action, "\(paths.settingsFile) (a link to \(path))", code: error.code, reason: error.reason)
    }

    /// A mode as `ls` users know it: 0444.
    static func octal(_ mode: UInt32) -> String {
        "0" + String(mode & 0o777, radix: 8)
    }

    /// Settings files notif writes are a few hundred bytes; anything this big is not one.
    static let sizeLimit = 1 << 20

    /// Every write of settings.json (`set`, `edit`, the page, the daemon, a reset) comes here.
    /// A file its owner made read-only (no owner write bit) is not replaced: that is a wish to
    /// keep it as it is, and a rename over it would end that quietly.
    private func write(_ bytes: [UInt8], to path: String) throws(PreferencesError) {
        do throws(FileError) {
            if let status = try FileStatus.of(path), status.kind == .file, status.mode & 0o200 == 0 {
                throw FileError("write", path, code: EACCES,
                                reason: "it is read-only (mode \(Self.octal(status.mode))); to let notif save it: chmod u+w \(path)")
            }
            try AtomicFile.write(bytes, to: path)
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
