import Glibc

/// Whether a process has a file open for writing: a write that is not finished yet (a shell's
/// `> settings.json` between its two halves, a tool that writes in steps). Found in /proc: a
/// descriptor that leads to the same file (device and inode), opened write-only or read-write.
/// Only processes this user may look into are seen, which are the ones that can write a 0600
/// file of the user's.
public enum OpenWriters {
    /// Whether any process holds `path` open for writing now.
    public static func any(of path: String) -> Bool {
        var target = stat()
        guard stat(path, &target) == 0 else { return false }
        return FileIO.processIDs().contains { holds(pid: $0, device: target.st_dev, inode: target.st_ino) }
    }

    private static func holds(pid: String, device: UInt, inode: UInt) -> Bool {
        let fds = "/proc/\(pid)/fd"
        return ((try? FileIO.names(in: fds)) ?? []).contains { fd in
            var info = stat()
            guard stat(fds + "/" + fd, &info) == 0, info.st_dev == device, info.st_ino == inode else { return false }
            return writable(flagsIn: "/proc/\(pid)/fdinfo/\(fd)")
        }
    }

    /// The `flags:` line of an fdinfo file (octal) says O_WRONLY or O_RDWR.
    static func writable(flagsIn path: String) -> Bool {
        guard let bytes = try? FileIO.read(path, limit: 4096) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
              let flags = Int(line.dropFirst("flags:".count).trimmingCharacters(in: " \t"), radix: 8) else { return false }
        return flags & Int(O_ACCMODE) != Int(O_RDONLY)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return text
    }
}
