import Glibc

/// Connecting to a local (Unix domain) stream socket to learn whether something serves it, and
/// who. A socket file outlives the process that bound it: only a connection that succeeds says a
/// listener is there.
enum UnixSocket {
    /// The pid and uid of the process listening on `name`, from the kernel (`SO_PEERCRED`); nil
    /// when nothing accepts connections there (no file, a file left by a dead process, no right
    /// to connect). An abstract name lives in the kernel only, not in the file system.
    static func listener(_ name: String, abstract: Bool) -> (pid: pid_t, uid: uid_t)? {
        let (fd, code) = connect(name, abstract: abstract)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A Unix socket connects at once, or says EAGAIN when its queue is full (still served).
        guard code == 0 || code == EAGAIN || code == EINPROGRESS else { return nil }
        return peer(of: fd)
    }

    /// A non-blocking socket (closed on exec) connecting to `name`, and `connect`'s errno (0 when
    /// connected); the socket is -1 when there is none to close (the name too long for one, say).
    static func connect(_ name: String, abstract: Bool) -> (fd: Int32, code: Int32) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        let offset = abstract ? 1 : 0   // an abstract name starts with a NUL byte
        guard bytes.count + offset < MemoryLayout.size(ofValue: address.sun_path) else { return (-1, ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return (-1, errno) }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (i, byte) in bytes.enumerated() { path[i + offset] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count + (abstract ? 0 : 1))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        return (fd, connected == 0 ? 0 : errno)
    }

    /// The pid and uid of the process at the other end of the connected socket `fd`, from the
    /// kernel (`SO_PEERCRED`: who listened on it); nil when the kernel does not say.
    static func peer(of fd: Int32) -> (pid: pid_t, uid: uid_t)? {
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        let peerCredentials: Int32 = 17   // SO_PEERCRED
        guard getsockopt(fd, SOL_SOCKET, peerCredentials, &credentials, &size) == 0, credentials.pid > 0 else { return nil }
        return (credentials.pid, credentials.uid)
    }
}
