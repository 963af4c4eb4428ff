import Glibc
import SharedLogic

/// deliveries.jsonl: one JSON object per delivery attempt, appended whole, read from the end.
public struct DeliveryLog: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Appends one record as a single `write` on an O_APPEND descriptor, then fsyncs. A torn
    /// last line (from a crash) is ended first so it cannot swallow the new record.
    public func append(_ record: DeliveryRecord) throws(FileError) {
        try FileIO.makeDirectory(Posix.directory(of: path))
        var line = Array((JSONWriter.compact(record.json) + "\n").utf8)
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw errno == ELOOP ? FileError.symlink("append to", path) : FileError("append to", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError("append to", path) }
        if let problem = FileError.foreignOwner("append to", path, owner: info.st_uid) { throw problem }
        let size = lseek(fd, 0, SEEK_END)
        var last: UInt8 = 0
        if size > 0, pread(fd, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            line.insert(UInt8(ascii: "\n"), at: 0)
        }
        guard Posix.writeAll(fd, line), fsync(fd) == 0 else { throw FileError("append to", path) }
    }

    /// Up to `limit` records, newest first, reading only as much of the file's end as needed.
    /// Lines that are not records (torn or foreign) are skipped.
    public func newest(_ limit: Int, where include: (DeliveryRecord) -> Bool = { _ in true }) throws(FileError) -> [DeliveryRecord] {
        guard limit > 0 else { return [] }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return [] }
            throw errno == ELOOP ? FileError.symlink("read", path) : FileError("read", path)
        }
        defer { close(fd) }
        var end = lseek(fd, 0, SEEK_END)
        if end < 0 { throw FileError("read", path) }
        var records: [DeliveryRecord] = []
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
        return records
    }
}
