import Glibc
import SharedLogic

/// deliveries.jsonl: one JSON object per delivery attempt, appended whole, read from the end.
/// It never grows past `rotateAt` bytes: the append that would take it past moves the file to
/// `deliveries.jsonl.1` (replacing an older one) and starts a fresh file, so at most about
/// twice that is kept, and reads continue into the `.1` file when asked for more.
public struct DeliveryLog: Sendable {
    public let path: String
    /// The size the file may reach before it is rotated (1 MiB).
    public let rotateAt: Int

    public init(path: String, rotateAt: Int = 1 << 20) {
        self.path = path
        self.rotateAt = rotateAt
    }

    /// The previous file, kept after a rotation.
    public var rotatedPath: String { path + ".1" }

    /// Appends one record as a single `write` on an O_APPEND descriptor, then fsyncs. A torn
    /// last line (from a crash) is ended first so it cannot swallow the new record. Appends
    /// hold an exclusive `flock` on the file, so a rotation (an atomic rename to `.1`) happens
    /// once however many processes append at the moment the limit is crossed.
    public func append(_ record: DeliveryRecord) throws(FileError) {
        try FileIO.makeDirectory(Posix.directory(of: path))
        let entry = Array((JSONWriter.compact(record.json) + "\n").utf8)
        var attempts = 0
        while true {
            attempts += 1
            let fd = try openLocked()
            defer { close(fd) }
            let size = lseek(fd, 0, SEEK_END)
            if size < 0 { throw FileError("append to", path) }
            // Rotate when the record would take a non-empty file past the limit (a few rounds at
            // most: someone else may rotate or recreate the file between ours).
            if size > 0, Int(size) + entry.count > rotateAt, attempts < 4 {
                if rename(path, rotatedPath) != 0 { throw FileError("rotate", path) }
                AtomicFile.syncDirectory(Posix.directory(of: path))
                continue
            }
            var line = entry
            var last: UInt8 = 0
            if size > 0, pread(fd, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
                line.insert(UInt8(ascii: "\n"), at: 0)
            }
            guard Posix.writeAll(fd, line), fsync(fd) == 0 else { throw FileError("append to", path) }
            return
        }
    }

    /// The log opened for appending under an exclusive lock, and still the file at `path`
    /// once the lock is held (another process may have rotated it while this one waited).
    private func openLocked() throws(FileError) -> Int32 {
        while true {
            // Never through a link, and only a file of this user's (see Security in the README).
            let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            if fd < 0 { throw errno == ELOOP ? FileError.symlink("append to", path) : FileError("append to", path) }
            var info = stat()
            if fstat(fd, &info) != 0 {
                close(fd)
                throw FileError("append to", path)
            }
            if let problem = FileError.foreignOwner("append to", path, owner: info.st_uid) {
                close(fd)
                throw problem
            }
            if info.st_mode & S_IFMT != S_IFREG {
                close(fd)
                throw FileError("append to", path, code: EINVAL, reason: "it is not a regular file")
            }
            var locked = flock(fd, LOCK_EX)
            while locked != 0 && errno == EINTR { locked = flock(fd, LOCK_EX) }
            var held = stat()
            var named = stat()
            if locked == 0, fstat(fd, &held) == 0, lstat(path, &named) == 0,
               held.st_dev == named.st_dev, held.st_ino == named.st_ino {
                return fd
            }
            let failed = locked != 0
            close(fd)
            if failed { throw FileError("lock", path) }
        }
    }

    /// Up to `limit` records, newest first, reading only as much of the file's end as needed
    /// (and of the `.1` file when the current one holds fewer). Lines that are not records
    /// (torn or foreign) are skipped.
    public func newest(_ limit: Int, where include: (DeliveryRecord) -> Bool = { _ in true }) throws(FileError) -> [DeliveryRecord] {
        guard limit > 0 else { return [] }
        var records: [DeliveryRecord] = []
        try Self.readNewest(path, limit, include, into: &records)
        if records.count < limit {
            try Self.readNewest(rotatedPath, limit, include, into: &records)
        }
        return records
    }

    /// Appends to `records`, newest first, the records of the file at `path` until there are `limit`.
    private static func readNewest(_ path: String, _ limit: Int, _ include: (DeliveryRecord) -> Bool,
                                   into records: inout [DeliveryRecord]) throws(FileError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return }
            throw errno == ELOOP ? FileError.symlink("read", path) : FileError("read", path)
        }
        var info = stat()
        if fstat(fd, &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
            close(fd)
            throw FileError("read", path, code: EINVAL, reason: "it is not a regular file")
        }
        defer { close(fd) }
        var end = lseek(fd, 0, SEEK_END)
        if end < 0 { throw FileError("read", path) }
        var carry: [UInt8] = []   // the start of a line whose beginning is further back
        let chunkSize = 16384
        while end > 0 && records.count < limit {
            let start = max(0, end - off_t(chunkSize))
            var chunk = [UInt8](repeating: 0, count: Int(end - start))
            let got = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, start) }
            if got != chunk.count { throw FileError("read", path) }
            chunk.append(contentsOf: carry)
            var lines = chunk.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            carry = start > 0 ? Array(lines.removeFirst()) : []
            for line in lines.reversed() where !line.isEmpty {
                guard let value = try? JSONParser.parse(Array(line)), let record = DeliveryRecord(json: value),
                      include(record) else { continue }
                records.append(record)
                if records.count == limit { break }
            }
            end = start
        }
    }
}
