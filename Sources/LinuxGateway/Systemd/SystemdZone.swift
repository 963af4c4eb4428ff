import Storage

/// Which `TZ` values systemd can take after the time in `OnCalendar=` (`*-*-* 09:00:00
/// Asia/Kolkata`): a zone of the system's zone database, by name, as systemd itself checks it
/// (letters, digits, `-`, `_`, `+`, single slashes between parts; a TZif file under
/// /usr/share/zoneinfo). A POSIX TZ rule (`EST5EDT,M3.2.0,M11.1.0`) is not one.
public enum SystemdZone {
    /// Where systemd looks zone names up (it ignores `TZDIR`).
    public static let zoneInfo = "/usr/share/zoneinfo"

    /// The zone name for `OnCalendar=` meaning what `TZ=value` means to notif, or nil when
    /// systemd has none: `:Asia/Tokyo` and `/usr/share/zoneinfo/Asia/Tokyo` are `Asia/Tokyo`, an
    /// empty value is `UTC`.
    public static func calendarName(forTZ value: String, zoneInfo: String = zoneInfo) -> String? {
        var spec = value
        if spec.hasPrefix(":") { spec.removeFirst() }
        if spec.isEmpty { return "UTC" }
        let directory = zoneInfo.hasSuffix("/") ? zoneInfo : zoneInfo + "/"
        if spec.hasPrefix("/") {
            guard spec.hasPrefix(directory) else { return nil }
            spec.removeFirst(directory.count)
        }
        return isValid(spec, zoneInfo: directory) ? spec : nil
    }

    /// systemd's `timezone_is_valid`: the characters, no leading, trailing or doubled slash, no
    /// part starting with a dot, and a TZif file of that name.
    static func isValid(_ name: String, zoneInfo directory: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 255, !name.hasPrefix("/"), !name.hasSuffix("/"), !name.contains("//") else { return false }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_+/".unicodeScalars.contains($0)
        }
        guard allowed, !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return false }
        guard let head = try? FileIO.read(directory + name, limit: 1 << 20) else { return false }
        return head.starts(with: Array("TZif".utf8))
    }
}
