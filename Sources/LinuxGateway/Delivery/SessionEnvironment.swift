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

    /// Environments to try for a delivery, best first: the process's own session, the recorded
    /// one (when its socket still exists), then the user's standard bus at /run/user/UID/bus.
    public static func candidates(
        current lookup: (String) -> String?, recorded: SessionEnvironment?, uid: UInt32,
        exists: (String) -> Bool = { access($0, F_OK) == 0 }
    ) -> [(source: String, changes: [String: String?])] {
        var result: [(source: String, changes: [String: String?])] = []
        let current = lookup("DBUS_SESSION_BUS_ADDRESS").flatMap { $0.isEmpty ? nil : $0 }
        if current != nil { result.append(("this session", [:])) }
        if let recorded, let bus = recorded.values["DBUS_SESSION_BUS_ADDRESS"], bus != current, reachable(bus, exists: exists) {
            result.append(("the recorded session", recorded.values.mapValues { Optional($0) }))
        }
        let standard = "unix:path=/run/user/\(uid)/bus"
        if standard != current, standard != recorded?.values["DBUS_SESSION_BUS_ADDRESS"], reachable(standard, exists: exists) {
            result.append(("the user bus", ["DBUS_SESSION_BUS_ADDRESS": standard]))
        }
        return result
    }

    /// Whether a bus address could still work: a `unix:path=` socket must exist; other forms are tried.
    static func reachable(_ address: String, exists: (String) -> Bool) -> Bool {
        guard let range = address.firstRange(of: "unix:path=") else { return true }
        let path = address[range.upperBound...].prefix { $0 != "," && $0 != ";" }
        return exists(String(path))
    }
}
