import SharedLogic
import Storage

/// The built-in scheduler: one file per reminder in `$XDG_STATE_HOME/notif/embedded/`, written
/// atomically, shown at its time by `notif daemon` (which must be running for anything to fire).
public struct EmbeddedScheduler: LocalNotificationGateway {
    public let name = "embedded"
    public let directory: String

    /// The daemon's lock file in the state directory: held while `notif daemon` runs.
    public static let daemonLockName = "daemon.lock"

    public init(paths: NotifPaths) {
        directory = paths.stateFile("embedded")
    }

    public func installed() throws(GatewayError) -> [String: String] {
        var result: [String: String] = [:]
        for name in try fileNames() {
            if let text = try read(name) { result[name] = text }
        }
        return result
    }

    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        try checked(entry.reminder.id)
        return EmbeddedEntry(id: entry.reminder.id, time: entry.reminder.time).text
    }

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let text = try render(entry)
        do {
            try FileIO.makeDirectory(directory)
            try AtomicFile.write(Array(text.utf8), to: Posix.join(directory, entry.reminder.id))
        } catch {
            throw GatewayError(error.description)
        }
    }

    public func cancel(_ id: String) throws(GatewayError) {
        try checked(id)
        do {
            try FileIO.remove(Posix.join(directory, id))
        } catch {
            throw GatewayError(error.description)
        }
    }

    /// The entries `notif daemon` runs, by id; files that are not entries are skipped.
    public func entries() throws(GatewayError) -> [EmbeddedEntry] {
        try installed().sorted { $0.key < $1.key }.compactMap { EmbeddedEntry(parsing: $0.value) }
    }

    /// The directory's identity and modification time: a cheap way to notice any change to it.
    public func stamp() -> FileStatus? { try? FileStatus.of(directory) }

    private func checked(_ id: String) throws(GatewayError) {
        guard EmbeddedEntry.isValidID(id) else {
            throw GatewayError("cannot use \(id.debugDescription) as a built-in schedule entry: ids are letters, digits, '-', '_' and '.'")
        }
    }

    private func read(_ name: String) throws(GatewayError) -> String? {
        do {
            return try FileIO.read(Posix.join(directory, name), limit: 1 << 16, own: true).map { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw GatewayError(error.description)
        }
    }

    /// Entry file names (temporary files of an interrupted write start with a dot and are skipped).
    private func fileNames() throws(GatewayError) -> [String] {
        do {
            return try FileIO.names(in: directory).filter { EmbeddedEntry.isValidID($0) }
        } catch {
            throw GatewayError(error.description)
        }
    }
}
