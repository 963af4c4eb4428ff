import Glibc
import Storage

/// Who serves a D-Bus address. A session bus is a Unix socket; when the session that made it has
/// ended, another local user can bind the same name and receive this user's notifications. So
/// an address is trusted only when the process listening on it belongs to this user (or root):
/// the kernel's peer credentials (`SO_PEERCRED`) say so, and a `unix:path=` socket file must be
/// this user's too, in a directory nobody else may rename it in (not world-writable, or sticky).
/// The same rule holds for the bus of this process's environment, the user bus and a recorded
/// one; `DBusConnection` asks the kernel again on the socket it connected, and checks the bus's
/// guid when the address names one.
public enum BusPeer {
    /// The socket an address names: the first `unix:path=` or `unix:abstract=` of a `;` list.
    public static func socket(of address: String) -> (name: String, abstract: Bool)? {
        guard let keys = firstSocketEntry(address) else { return nil }
        if let path = keys["path"] { return (path, false) }
        return keys["abstract"].map { ($0, true) }
    }

    /// The server guid the address's socket entry names (`guid=`), if any.
    public static func guid(of address: String) -> String? {
        firstSocketEntry(address)?["guid"]
    }

    /// The keys of the first `unix:` entry with a `path` or `abstract`.
    private static func firstSocketEntry(_ address: String) -> [String: String]? {
        for part in address.split(separator: ";") where part.hasPrefix("unix:") {
            var keys: [String: String] = [:]
            for pair in part.dropFirst("unix:".count).split(separator: ",") {
                guard let eq = pair.firstIndex(of: "=") else { continue }
                keys[String(pair[..<eq])] = unescape(String(pair[pair.index(after: eq)...]))
            }
            if keys["path"] != nil || keys["abstract"] != nil { return keys }
        }
        return nil
    }

    /// The name of the error for a bus this rule refuses.
    public static let notUsed = "notif.BusNotUsed"

    /// Whether a process of `peer` may serve this user's bus or display: the user, or root.
    static func mayServe(_ peer: uid_t, uid: uid_t) -> Bool { peer == uid || peer == 0 }

    /// Why notif will not hand this user's notifications to `address`, or nil when it may.
    /// A client tries each entry of a `;` list in turn, so every entry must pass.
    public static func problem(with address: String, uid: uid_t) -> String? {
        let entries = address.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        guard !entries.isEmpty else { return "not a local socket" }
        for entry in entries {
            if let problem = entryProblem(entry, uid: uid) { return problem }
        }
        return nil
    }

    private static func entryProblem(_ address: String, uid: uid_t) -> String? {
        guard address.hasPrefix("unix:"), let socket = socket(of: address) else { return "not a local socket" }
        if !socket.abstract {
            var info = stat()
            guard lstat(socket.name, &info) == 0 else { return "its socket \(socket.name) is gone" }
            guard info.st_mode & S_IFMT == S_IFSOCK else { return "\(socket.name) is not a socket" }
            guard info.st_uid == uid || info.st_uid == 0 else { return "its socket belongs to uid \(info.st_uid)" }
            var dir = stat()
            let parent = Posix.directory(of: socket.name)
            guard stat(parent, &dir) == 0 else { return "cannot examine \(parent)" }
            if dir.st_mode & 0o002 != 0 && dir.st_mode & 0o1000 == 0 {
                return "its directory \(parent) is writable by everyone"
            }
        }
        guard let peer = listenerUID(socket.name, abstract: socket.abstract) else { return "nothing answers on it" }
        guard mayServe(peer, uid: uid) else { return served(by: peer) }
        return nil
    }

    /// The words for a socket another user serves.
    static func served(by peer: uid_t) -> String { "it is served by another user (uid \(peer))" }

    /// The uid of the process listening on a Unix socket, from the kernel; nil when nothing does.
    static func listenerUID(_ name: String, abstract: Bool) -> uid_t? {
        UnixSocket.listener(name, abstract: abstract)?.uid
    }

    /// D-Bus escapes bytes in address values as `%XX`.
    static func unescape(_ value: String) -> String {
        guard value.contains("%") else { return value }
        var bytes: [UInt8] = []
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "%"), let high = utf8.next(), let low = utf8.next(),
               let decoded = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(decoded)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
