import Storage

/// The few programs delivery runs (`setsid`, `systemd-run`, `x-terminal-emulator`, `gio`), by
/// absolute path: the first on `PATH` (its absolute entries), else the first in the standard
/// directories. A crontab's `PATH=/nonexistent` line or `env -i` must not make an installed
/// program look missing.
public enum SystemProgram {
    /// Where Debian installs programs, in `PATH` order.
    public static let directories = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// The first executable `name` on `path` (a `PATH` value, nil: unset), then in `directories`; or nil.
    public static func path(_ name: String, searching path: String?, isExecutable: (String) -> Bool = { FileIO.isExecutable($0) }) -> String? {
        let onPath = (path ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return (onPath + directories).lazy.map { Posix.join($0, name) }.first(where: isExecutable)
    }

    /// Why `name` cannot be run: `gio is not installed (looked on PATH and in /usr/local/sbin, …)`.
    public static func missing(_ name: String) -> String {
        "\(name) is not installed (looked on PATH and in \(directories.joined(separator: ", ")))"
    }
}
