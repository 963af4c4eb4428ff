import Glibc

/// What `lstat`/`stat` say about a path, in the few terms notif needs.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Sendable { case file, directory, symlink, other }
    public let kind: Kind
    public let mode: UInt32
    public let size: Int64
    public let inode: UInt64
    public let modified: Int64
    public let modifiedNanoseconds: Int
    /// The owner's uid.
    public let owner: UInt32

    /// Status of `path` (following symlinks unless `followLinks` is false); nil when it does not exist.
    public static func of(_ path: String, followLinks: Bool = true) throws(FileError) -> FileStatus? {
        var info = stat()
        let rc = followLinks ? stat(path, &info) : lstat(path, &info)
        if rc != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileError("examine", path)
        }
        return FileStatus(info)
    }

    init(_ info: stat) {
        switch info.st_mode & 0o170000 {
        case 0o100000: kind = .file
        case 0o040000: kind = .directory
        case 0o120000: kind = .symlink
        default: kind = .other
        }
        mode = info.st_mode & 0o7777
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        owner = info.st_uid
    }
}
