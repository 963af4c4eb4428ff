import Glibc

/// Who serves a display, recorded or in this process's environment. A recorded `DISPLAY=:577`
/// outlives its session, and `su` or `sudo -E` hand root a user's; another user can then receive
/// the terminal the Settings button opens. So a display is used only when the kernel's peer
/// credentials (`SO_PEERCRED`, as `BusPeer` asks for the bus) show that every socket serving it
/// belongs to this user (or root); a display over the network is never used.
public enum DisplayPeer {
    /// Why `name=value` (`DISPLAY` or `WAYLAND_DISPLAY`) may not be used, or nil.
    /// `runtimeDirectory`: where a relative Wayland name lives (`XDG_RUNTIME_DIR`, else /run/user/UID).
    public static func problem(_ name: String, _ value: String, runtimeDirectory: String?, uid: uid_t) -> String? {
        problem(name, value, runtimeDirectory: runtimeDirectory, uid: uid) { UnixSocket.listener($0, abstract: $1)?.uid }
    }

    /// `problem`, with who listens on a socket (path, abstract) told by `listener`.
    static func problem(_ name: String, _ value: String, runtimeDirectory: String?, uid: uid_t, listener: (String, Bool) -> uid_t?) -> String? {
        let sockets: [(String, Bool)]
        if name == "WAYLAND_DISPLAY" {
            let directory = runtimeDirectory.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(uid)"
            sockets = [(value.hasPrefix("/") ? value : directory + "/" + value, false)]
        } else {
            guard let number = localDisplayNumber(value) else { return "it is not a display of this machine (notif never uses one over the network)" }
            let path = "/tmp/.X11-unix/X\(number)"
            sockets = [(path, true), (path, false)]   // X clients try the abstract name first
        }
        let served = sockets.compactMap { socket in listener(socket.0, socket.1) }
        guard !served.isEmpty else { return "nothing serves it now" }
        if let other = served.first(where: { $0 != uid && $0 != 0 }) { return "it is served by another user (uid \(other))" }
        return nil
    }

    /// The number of a local X display (`:0`, `:0.1`, `unix:0`); nil for `host:0` and anything else.
    static func localDisplayNumber(_ display: String) -> Int? {
        guard let colon = display.lastIndex(of: ":") else { return nil }
        let host = display[..<colon]
        guard host.isEmpty || host == "unix" else { return nil }
        let number = display[display.index(after: colon)...].prefix { $0 != "." }
        return number.isEmpty ? nil : Int(number).flatMap { $0 >= 0 ? $0 : nil }
    }
}
