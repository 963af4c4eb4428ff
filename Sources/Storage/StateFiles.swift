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

    /// The text of a state file, or nil when it does not exist.
    public func read(_ name: String) throws(FileError) -> String? {
        guard let bytes = try FileIO.read(paths.stateFile(name), limit: 16 << 20, own: true) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
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
    public func lastDelivered() -> [String: CivilDate] {
        guard let text = try? read(Self.deliveredFile), let doc = try? JSONParser.parse(text),
              let members = doc.objectMembers else { return [:] }
        var result: [String: CivilDate] = [:]
        for member in members {
            if let day = member.value.stringValue.flatMap(CivilDate.init) { result[member.key] = day }
        }
        return result
    }

    public func recordDelivered(_ id: String, on day: CivilDate) throws(FileError) {
        var days = lastDelivered()
        days[id] = day
        let doc = JSONValue.object(days.keys.sorted().map { JSONMember($0, .string(days[$0]!.description)) })
        try write(Self.deliveredFile, JSONWriter.pretty(doc))
    }
}
