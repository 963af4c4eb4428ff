import Glibc
import Storage

/// The desktop session's variables, recorded when notif runs inside the session so that a
/// scheduler's job (cron gives jobs no D-Bus address) can still reach the notification service.
public struct SessionEnvironment: Equatable, Sendable {
    public static let names = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"]

    public var values: [String: String]

    public init(values: [String: String]) { self.values = values }

    /// Why this user may not use the session variable `name=value`, or nil: the one rule for the
    /// environment's variables and the recorded ones alike. A bus is used only when this user (or
    /// root) listens on its socket (`BusPeer`); a display only when it is a local one this user
    /// (or root) serves (`DisplayPeer`), never one over the network.
    public static func problem(_ name: String, _ value: String, lookup: (String) -> String?) -> String? {
        if name == "DBUS_SESSION_BUS_ADDRESS" { return BusPeer.problem(with: value, uid: geteuid()) }
        return DisplayPeer.problem(name, value, runtimeDirectory: lookup("XDG_RUNTIME_DIR"), uid: geteuid())
    }

    /// The session variables of a process that pass `problem`, or nil when it has no session
    /// bus that does (run by a scheduler, or with another user's session).
    public static func capture(_ lookup: (String) -> String?, problem: (String, String) -> String?) -> SessionEnvironment? {
        var values: [String: String] = [:]
        for name in names {
            if let value = lookup(name), !value.isEmpty, problem(name, value) == nil { values[name] = value }
        }
        return values["DBUS_SESSION_BUS_ADDRESS"] == nil ? nil : SessionEnvironment(values: values)
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
    /// recorded one. The first is always tried, so that a refusal is said (`DesktopNotifier`
    /// checks every bus by `problem` before it connects); the others are used only when
    /// `trusted` says this user serves them (a recorded socket in /tmp may be another user's now).
    public static func candidates(
        current lookup: (String) -> String?, recorded: SessionEnvironment?, uid: UInt32,
        trusted: (String) -> Bool = { BusPeer.problem(with: $0, uid: geteuid()) == nil }
    ) -> [(source: String, changes: [String: String?])] {
        var result: [(source: String, changes: [String: String?])] = []
        let current = lookup("DBUS_SESSION_BUS_ADDRESS").flatMap { $0.isEmpty ? nil : $0 }
        let standard = "unix:path=/run/user/\(uid)/bus"
        // Named for what it is: the user bus, when this process was given it (a systemd user service is).
        if let current { result.append((current == standard ? "the user bus" : "this session", [:])) }
        if standard != current, trusted(standard) {
            result.append(("the user bus", ["DBUS_SESSION_BUS_ADDRESS": standard]))
        }
        if let recorded, let bus = recorded.values["DBUS_SESSION_BUS_ADDRESS"], bus != current, bus != standard, trusted(bus) {
            result.append(("the recorded session", recorded.values.mapValues { Optional($0) }))
        }
        return result
    }
}
