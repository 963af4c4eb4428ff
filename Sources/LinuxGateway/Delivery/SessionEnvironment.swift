import Glibc
import Storage

/// The desktop session's variables, recorded when notif runs inside the session so that a
/// scheduler's job (cron gives jobs no D-Bus address) can still reach the notification service.
public struct SessionEnvironment: Equatable, Sendable {
    public static let names = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"]

    public var values: [String: String]

    public init(values: [String: String]) { self.values = values }

    /// The session variables of a process, or nil when it has no session bus (run by a scheduler).
    public static func capture(_ lookup: (String) -> String?) -> SessionEnvironment? {
        guard let bus = lookup("DBUS_SESSION_BUS_ADDRESS"), !bus.isEmpty else { return nil }
        var values = ["DBUS_SESSION_BUS_ADDRESS": bus]
        for name in names.dropFirst() {
            if let value = lookup(name), !value.isEmpty { values[name] = value }
        }
        return SessionEnvironment(values: values)
    }

    /// `NAME=value` lines (values never hold newlines: those are dropped when read).
    public var text: String {
        values.keys.sorted().compactMap { name in
            let value = values[name]!
            return value.contains("\n") ? nil : name + "=" + value + "\n"
        }.joined()
    }

    public init(parsing text: String) {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "="), Self.names.contains(String(line[..<eq])) else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        self.values = values
    }

    /// Environments to try for a delivery, best first: the process's own session (what this
    /// user's own environment says), the user's standard bus at /run/user/UID/bus, then the
    /// recorded one. Only the first is taken on trust: the others are used when `trusted` says the
    /// process serving them is this user's (a recorded socket in /tmp may be another user's now).
    public static func candidates(
        current lookup: (String) -> String?, recorded: SessionEnvironment?, uid: UInt32,
        trusted: (String) -> Bool = { BusPeer.problem(with: $0, uid: getuid()) == nil }
    ) -> [(source: String, changes: [String: String?])] {
        var result: [(source: String, changes: [String: String?])] = []
        let current = lookup("DBUS_SESSION_BUS_ADDRESS").flatMap { $0.isEmpty ? nil : $0 }
        if current != nil { result.append(("this session", [:])) }
        let standard = "unix:path=/run/user/\(uid)/bus"
        if standard != current, trusted(standard) {
            result.append(("the user bus", ["DBUS_SESSION_BUS_ADDRESS": standard]))
        }
        if let recorded, let bus = recorded.values["DBUS_SESSION_BUS_ADDRESS"], bus != current, bus != standard, trusted(bus) {
            result.append(("the recorded session", recorded.values.mapValues { Optional($0) }))
        }
        return result
    }
}
