import Storage

/// The few programs delivery runs (`setsid`, `systemd-run`, `x-terminal-emulator`, `gio`),
/// found by absolute path in the standard directories whatever `PATH` says: a crontab's
/// `PATH=/nonexistent` line or `env -i` must not make an installed program look missing.
public enum SystemProgram {
    /// Where Debian installs programs, in `PATH` order.
    public static let directories = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// The first executable `name` in `directories`, or nil.
    public static func path(_ name: String, isExecutable: (String) -> Bool = { FileIO.isExecutable($0) }) -> String? {
        directories.lazy.map { $0 + "/" + name }.first(where: isExecutable)
    }

    /// Why `name` cannot be run: `gio is not installed (looked in /usr/local/sbin, …)`.
    public static func missing(_ name: String) -> String {
        "\(name) is not installed (looked in \(directories.joined(separator: ", ")))"
    }
}
