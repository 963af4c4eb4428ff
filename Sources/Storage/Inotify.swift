import Glibc

/// One inotify descriptor (non-blocking, closed on exec): watches added by path, and the
/// notices waiting on it. The page and `notif daemon` each keep one and poll its `fd`.
public final class Inotify {
    /// One inotify event: the watch it came on, what happened, and the name in a watched directory
    /// (empty for the watched file or directory itself).
    public struct Notice: Equatable, Sendable {
        public var watch: Int32
        public var mask: UInt32
        public var name: String
    }

    public let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// nil when the kernel refuses one (no inotify, or `fs.inotify.max_user_instances` used up).
    public init?() {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    /// Watches `path` for `mask`; its watch descriptor, or nil when it cannot be watched (gone,
    /// say). The same path again is the same watch.
    public func add(_ path: String, mask: UInt32) -> Int32? {
        let watch = inotify_add_watch(fd, path, mask)
        return watch >= 0 ? watch : nil
    }

    public func remove(_ watch: Int32) {
        inotify_rm_watch(fd, watch)
    }

    /// Every notice waiting now, oldest first (none when nothing is waiting).
    public func read() -> [Notice] {
        var notices: [Notice] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return notices }
            notices += Self.parse(buffer[0..<count])
        }
    }

    /// `struct inotify_event` records (native byte order): wd, mask, cookie, len, then len bytes
    /// of NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [Notice] {
        var notices: [Notice] = []
        var offset = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at - bytes.startIndex, as: UInt32.self) }
        }
        while offset + 16 <= bytes.endIndex {
            let length = Int(word(offset + 12))
            guard offset + 16 + length <= bytes.endIndex else { break }
            let name = bytes[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
            notices.append(Notice(watch: Int32(bitPattern: word(offset)), mask: word(offset + 4),
                                  name: String(decoding: name, as: UTF8.self)))
            offset += 16 + length
        }
        return notices
    }
}
