import Glibc
import SharedLogic

/// Finds the machine's time zone the way glibc interprets `TZ`.
///
/// - `TZ` unset: `/etc/localtime`.
/// - `TZ` empty: UTC.
/// - A leading `:` is dropped.
/// - An absolute path names a TZif file directly.
/// - Otherwise a TZif file under `$TZDIR` (or `/usr/share/zoneinfo`); names containing `..` are refused.
/// - If no such file can be read, the value is parsed as a POSIX TZ string (`EST5EDT,M3.2.0,M11.1.0`).
/// - If nothing works, UTC.
public enum SystemTimeZone {
    /// Default TZif directory when `TZDIR` is unset or empty.
    public static let defaultZoneInfoDirectory = "/usr/share/zoneinfo"
    /// The file glibc reads when `TZ` is unset.
    public static let localTimeFile = "/etc/localtime"
    /// Largest TZif file accepted (real ones are a few KiB).
    static let maximumFileSize = 1 << 20

    /// The zone for this process, from its `TZ` and `TZDIR` environment variables.
    public static func current() -> ZoneRules {
        current(environment: environmentValue("TZ"), zoneInfoDirectory: environmentValue("TZDIR"))
    }

    /// The zone a process would use with `TZ` set to `tz` (`nil` = unset).
    /// - Parameter zoneInfoDirectory: the `TZDIR` value; `nil` or empty means `/usr/share/zoneinfo`.
    public static func current(environment tz: String?, zoneInfoDirectory: String? = nil) -> ZoneRules {
        guard var spec = tz else {
            return readZoneFile(localTimeFile, name: nameOfLocalTimeFile()) ?? .utc
        }
        if spec.hasPrefix(":") { spec.removeFirst() }
        if spec.isEmpty { return .utc }
        if let file = zoneFilePath(for: spec, zoneInfoDirectory: zoneInfoDirectory),
           let rules = readZoneFile(file, name: spec) {
            return rules
        }
        return ZoneRules(posix: spec) ?? .utc
    }

    /// Why `TZ` (`tz`) names no zone, when it does not: neither a TZif file nor a POSIX TZ rule,
    /// so times are UTC (as glibc then uses), which the person should be told rather than shown
    /// UTC as if it were their zone. nil when TZ is unset, empty (UTC by POSIX) or a zone.
    public static func problem(environment tz: String?, zoneInfoDirectory: String? = nil) -> String? {
        guard var spec = tz else { return nil }
        if spec.hasPrefix(":") { spec.removeFirst() }
        if spec.isEmpty { return nil }
        if let file = zoneFilePath(for: spec, zoneInfoDirectory: zoneInfoDirectory), readZoneFile(file, name: spec) != nil { return nil }
        if ZoneRules(posix: spec) != nil { return nil }
        return "TZ=\(TerminalText.safe(tz ?? "")) is not a time zone notif can find (no such zone file, and not a POSIX TZ rule): times are in UTC; set TZ to a zone such as Europe/Berlin, or unset it for the system zone"
    }

    /// Where the TZif file for `spec` would be, or nil for names refused outright.
    public static func zoneFilePath(for spec: String, zoneInfoDirectory: String?) -> String? {
        if spec.hasPrefix("/") { return spec }
        if spec.contains("..") { return nil }
        var directory = zoneInfoDirectory ?? ""
        if directory.isEmpty { directory = defaultZoneInfoDirectory }
        return directory.hasSuffix("/") ? directory + spec : directory + "/" + spec
    }

    /// The zone in TZif file `path`, or nil if it cannot be read or parsed.
    static func readZoneFile(_ path: String, name: String) -> ZoneRules? {
        // Only a regular file, and only up to the limit.
        guard let bytes = try? FileIO.read(path, limit: maximumFileSize) else { return nil }
        return try? ZoneRules(tzif: bytes, name: name)
    }

    /// `America/New_York` when `/etc/localtime` links into a zoneinfo tree, else `localtime`.
    static func nameOfLocalTimeFile() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return readlink(localTimeFile, base, pointer.count)
        }
        guard length > 0, length < buffer.count else { return "localtime" }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = target.split(separator: "/")
        guard let marker = parts.lastIndex(of: "zoneinfo"), marker + 1 < parts.count else { return "localtime" }
        return parts[(marker + 1)...].joined(separator: "/")
    }

    private static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
