import Glibc
import SharedLogic

/// Small files in notif's state directory (which scheduler holds the entries, recorded session
/// variables, the day each reminder was last delivered). Writes are atomic, 0600, and skipped
/// when the content would not change, so a no-op run writes nothing.
public struct StateFiles: Sendable {
    public let paths: NotifPaths

    public init(paths: NotifPaths) { self.paths = paths }

    public static let schedulerFile = "scheduler"
    public static let sessionFile = "session.env"
    public static let deliveredFile = "delivered.json"
    /// The `TZ` the running `notif daemon` was started with (empty: none, the system zone), so
    /// `status` knows when its entries written without a zone fire.
    public static let daemonZoneFile = "daemon-zone"

    /// The text of a state file, or nil when it does not exist.
    public func read(_ name: String) throws(FileError) -> String? {
        guard let bytes = try FileIO.read(paths.stateFile(name), limit: 16 << 20, own: true) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The members of a state file that holds a JSON object; none when it is missing, unreadable
    /// or not an object.
    public func objectMembers(_ name: String) -> [JSONMember] {
        (try? read(name)).flatMap { $0 }.flatMap { try? JSONParser.parse($0) }?.objectMembers ?? []
    }

    /// Writes `text` unless the file already holds exactly that. Returns whether it wrote.
    @discardableResult
    public func write(_ name: String, _ text: String) throws(FileError) -> Bool {
        if (try? read(name)) == text { return false }
        try FileIO.makeDirectory(paths.stateDirectory)
        try AtomicFile.write(Array(text.utf8), to: paths.stateFile(name))
        return true
    }

    public func remove(_ name: String) throws(FileError) {
        try FileIO.remove(paths.stateFile(name))
    }

    /// A lock file in the state directory (created with the directory when missing).
    public func lock(_ name: String) throws(FileError) -> HeldLock {
        try FileIO.makeDirectory(paths.stateDirectory)
        return try FileLock.acquire(paths.stateFile(name))
    }

    // MARK: Last delivery per reminder

    /// The local day each reminder was last delivered.
    public func lastDelivered() -> [String: CivilDate] { lastShown().mapValues(\.day) }

    /// The local day each reminder was last shown, and when: `{"ID": {"day": …, "at": …}}`
    /// (an earlier notif wrote the day alone, `{"ID": "2026-12-01"}`, which is read too).
    public func lastShown() -> [String: ShownDay] {
        var result: [String: ShownDay] = [:]
        for member in objectMembers(Self.deliveredFile) {
            if let day = member.value.stringValue.flatMap(CivilDate.init) {
                result[member.key] = ShownDay(day: day)
            } else if let day = member.value["day"]?.stringValue.flatMap(CivilDate.init) {
                result[member.key] = ShownDay(day: day, at: member.value["at"]?.stringValue.flatMap(ISO8601.parse))
            }
        }
        return result
    }

    /// Records that reminder `id` was shown for local `day` at `at` (its text in `zone`).
    public func recordDelivered(_ id: String, on day: CivilDate, at: Instant? = nil, zone: ZoneRules = .utc) throws(FileError) {
        var shown = lastShown()
        shown[id] = ShownDay(day: day, at: at)
        let doc = JSONValue.object(shown.keys.sorted().map { key in
            let value = shown[key]!
            return JSONMember(key, .object([JSONMember("day", .string(value.day.description))]
                + (value.at.map { [JSONMember("at", .string(ISO8601.format($0, in: zone)))] } ?? [])))
        })
        try write(Self.deliveredFile, JSONWriter.pretty(doc))
    }

    // MARK: When each entry began

    /// When each reminder's entry began, by `ID.TAG` (the configuration's tag), as `apply`
    /// recorded it when it installed an entry for a reminder that had none.
    public static let entrySinceFile = "entry-since.json"

    public func entrySince() -> [String: EntrySince] {
        var result: [String: EntrySince] = [:]
        for member in objectMembers(Self.entrySinceFile) {
            if let since = member.value.stringValue.flatMap(EntrySince.init(text:)) { result[member.key] = since }
        }
        return result
    }

    public func recordEntrySince(_ key: String, _ since: EntrySince) throws(FileError) {
        var all = entrySince()
        all[key] = since
        let doc = JSONValue.object(all.keys.sorted().map { JSONMember($0, .string(all[$0]!.text)) })
        try write(Self.entrySinceFile, JSONWriter.pretty(doc))
    }

    // MARK: Waiting for a notification service

    /// The lock a reminder's waiter holds while it waits for a notification service to show
    /// it: at most one waits, whatever runs and schedulers come meanwhile.
    public static func waitLock(_ id: String) -> String { "wait-\(id).lock" }

    /// Whether a waiter holds reminder `id`'s wait lock now.
    public func isWaiting(_ id: String) -> Bool { FileLock.isHeld(paths.stateFile(Self.waitLock(id))) }
}
