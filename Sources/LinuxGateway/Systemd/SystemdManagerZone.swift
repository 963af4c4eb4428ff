import Glibc
import SharedLogic
import Storage

/// The zone a running systemd user manager reads `OnCalendar=` times without a zone in. The
/// manager works them out with the C library, so a `TZ` in its own environment wins over the
/// system zone: a manager started with `TZ` (some logins, containers, a test rig) fires
/// `*-*-* 09:00:00` at 09:00 in that zone. The manager is the process the kernel names as the
/// listener on `systemd/private`; its environment is the one it was started with
/// (`/proc/PID/environ`, readable by its own user).
public enum SystemdManagerZone {
    /// The manager's own zone when its environment sets `TZ`; nil when it runs in the system
    /// zone, or when no manager of this user answers.
    public static func own(runtimeDirectory: String?) -> ZoneRules? {
        guard let listener = UnixSocket.listener(privateSocket(runtimeDirectory: runtimeDirectory), abstract: false),
              listener.uid == geteuid(),
              let bytes = try? FileIO.read("/proc/\(listener.pid)/environ", limit: 1 << 20) else { return nil }
        return zone(environ: bytes)
    }

    /// The zone `TZ` names in a NUL-separated environment block (with its `TZDIR`), or nil
    /// when it has no `TZ`.
    static func zone(environ bytes: [UInt8]) -> ZoneRules? {
        var variables: [String: String] = [:]
        for entry in bytes.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        guard let tz = variables["TZ"] else { return nil }
        return SystemTimeZone.current(environment: tz, zoneInfoDirectory: variables["TZDIR"])
    }

    /// `systemd/private` in the runtime directory: `XDG_RUNTIME_DIR` when absolute, else
    /// /run/user/UID.
    static func privateSocket(runtimeDirectory: String?) -> String {
        let runtime = runtimeDirectory.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(getuid())"
        return Posix.join(runtime, "systemd/private")
    }
}
