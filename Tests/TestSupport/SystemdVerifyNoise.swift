/// What `systemd-analyze verify` says about the unit files it was given, without what it says
/// about other units installed on the machine: with several notification servers installed,
/// each with a user unit claiming org.freedesktop.Notifications (dunst, mako, swaync,
/// xfce4-notifyd), it prints two lines about them whatever it verifies.
public enum SystemdVerifyNoise {
    static let unrelated = ["Failed to put bus name to hashmap: File exists", "Two services allocated for the same bus name"]

    /// `stderr` without the lines about other units.
    public static func strip(_ stderr: String) -> String {
        stderr.split(separator: "\n")
            .filter { line in !unrelated.contains { line.contains($0) } }
            .map { $0 + "\n" }.joined()
    }

    /// The same for raw bytes.
    public static func strip(_ stderr: [UInt8]) -> [UInt8] {
        Array(strip(String(decoding: stderr, as: UTF8.self)).utf8)
    }
}
