import Glibc

/// Reading whole files and making private directories, with errors that name the path.
public enum FileIO {
    /// The bytes of the regular file at `path`, or nil when it does not exist.
    /// A directory, a device, an unreadable file or one over `limit` bytes is an error.
    /// - Parameter own: notif's own file: a symlink is refused, and so is a file that belongs
    ///   to another user (one a privileged run, or another user, could have put there).
    public static func read(_ path: String, limit: Int = 4 << 20, own: Bool = false) throws(FileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (own ? O_NOFOLLOW : 0))
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP && own { throw FileError.symlink("read", path) }
            throw FileError("read", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError("read", path) }
        if own, let problem = FileError.foreignOwner("read", path, owner: info.st_uid) { throw problem }
        let status = FileStatus(info)
        guard status.kind == .file else {
            throw FileError("read", path, reason: status.kind == .directory ? "it is a directory, not a file" : "it is not a regular file")
        }
        guard status.size <= Int64(limit) else {
            throw FileError("read", path, code: EFBIG, reason: "it is \(status.size) bytes, over the \(limit)-byte limit")
        }
        // Read straight into an array of the file's size (+1 to notice growth); grow if needed.
        var capacity = status.size > 0 ? Int(status.size) + 1 : 4096 // /proc files say 0
        var bytes: [UInt8] = []
        while true {
            let start = bytes.count
            let chunk = try Self.readChunk(fd, path: path, upTo: capacity - start)
            bytes.append(contentsOf: chunk)
            if chunk.isEmpty { break }
            if bytes.count > limit {
                throw FileError("read", path, code: EFBIG, reason: "it is over the \(limit)-byte limit")
            }
            if bytes.count == capacity { capacity *= 2 }
        }
        return bytes
    }

    /// One read(2) of at most `count` bytes (retrying EINTR); empty at end of file.
    private static func readChunk(_ fd: Int32, path: String, upTo count: Int) throws(FileError) -> [UInt8] {
        while true {
            var failed = false
            let chunk = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { buffer, initialized in
                let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if n < 0 { failed = true }
                initialized = max(n, 0)
            }
            if failed {
                if errno == EINTR { continue }
                throw FileError("read", path)
            }
            return chunk
        }
    }

    /// Makes `path` and any missing parents; directories notif creates get mode 0700.
    public static func makeDirectory(_ path: String) throws(FileError) {
        if let status = try FileStatus.of(path) {
            guard status.kind == .directory else {
                throw FileError("create the directory", path, reason: "a file with that name is in the way")
            }
            return
        }
        let parent = Posix.directory(of: path)
        if parent != path { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0 {
            if errno == EEXIST, (try? FileStatus.of(path))??.kind == .directory { return }
            throw FileError("create the directory", path)
        }
        chmod(path, 0o700)
    }

    /// The names in a directory (without `.` and `..`), sorted; a missing directory has none.
    public static func names(in directory: String) throws(FileError) -> [String] {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw FileError("list", directory)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The processes in `procRoot` (its numeric names): those running now.
    public static func processIDs(procRoot: String = "/proc") -> [String] {
        ((try? names(in: procRoot)) ?? []).filter { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }

    /// Removes a file; a missing file is fine.
    public static func remove(_ path: String) throws(FileError) {
        if unlink(path) != 0 && errno != ENOENT { throw FileError("remove", path) }
    }

    /// The target of a symlink, made absolute against the link's directory; nil when `path` is not a link.
    public static func symlinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : Posix.join(Posix.directory(of: path), target)
    }

    /// The absolute path of the running executable as /proc/self/exe names it, without the
    /// kernel's " (deleted)" mark; nil when the link cannot be read. The file there may be gone or
    /// another one: whoever writes the path into an entry checks it with `isExecutable` first.
    public static func currentExecutable() -> String? {
        symlinkTarget("/proc/self/exe").map(executablePath(fromLink:))
    }

    /// What the kernel appends to /proc/PID/exe once the running file was removed or replaced.
    public static let deletedMark = " (deleted)"

    /// The path in the text of a /proc/PID/exe link: `/opt/notif (deleted)` is `/opt/notif`, where
    /// a replacement (`make install`) may now be, or nothing.
    public static func executablePath(fromLink text: String) -> String {
        text.hasSuffix(deletedMark) ? String(text.dropLast(deletedMark.count)) : text
    }

    /// A regular file (after symlinks) this process may execute: what an entry may name.
    public static func isExecutable(_ path: String) -> Bool {
        guard path.hasPrefix("/"), (try? FileStatus.of(path))??.kind == .file else { return false }
        return access(path, X_OK) == 0
    }
}
