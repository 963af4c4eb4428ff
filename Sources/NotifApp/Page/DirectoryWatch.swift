import Glibc
import Storage

/// The page's watch on its directories: a file in one closed, renamed into or out of it,
/// deleted, or given another owner or mode. Only finished writes count: a file being created or
/// written (truncated first, as `cat >` and many editors do) is not read before its writer
/// closes it. Without inotify the page still works; it only does not see others' changes.
final class DirectoryWatch {
    private let inotify = Inotify()
    private var watched: [Int32: String] = [:]

    static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_CLOSE_NOWRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_DELETE) | UInt32(IN_ATTRIB)

    /// What the key loop polls (nil without inotify).
    var fd: Int32? { inotify?.fd }

    /// Watches `directory` from now on; the same directory again is the same watch.
    func watch(directory: String) {
        if let watch = inotify?.add(directory, mask: Self.mask) { watched[watch] = directory }
    }

    /// The changes waiting now, each (directory, name, written) once.
    func changes() -> [FileChange] {
        var changes: [FileChange] = []
        for notice in inotify?.read() ?? [] {
            guard let directory = watched[notice.watch] else { continue }
            let change = FileChange(directory: directory, name: notice.name, written: notice.mask & UInt32(IN_CLOSE_NOWRITE) == 0)
            if !changes.contains(change) { changes.append(change) }
        }
        return changes
    }
}

/// One change in a watched directory.
struct FileChange: Equatable, Hashable, Sendable {
    /// The watched directory, as given to `watch(directory:)`.
    let directory: String
    /// The file's name in it (empty for the directory itself).
    let name: String
    /// A write finished: closed after writing, renamed into place, or the file renamed away or
    /// removed; false when it was only closed after reading (a lock file some notif process
    /// released, say).
    let written: Bool
}
