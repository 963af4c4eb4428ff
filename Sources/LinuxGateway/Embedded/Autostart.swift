import Glibc
import Storage

/// The XDG autostart entry that starts `notif daemon` at each desktop login:
/// `$XDG_CONFIG_HOME/autostart/notif-daemon.desktop`.
public enum Autostart {
    /// Marks the file as notif's: `--remove-autostart` removes only a file carrying it.
    static let marker = "# Managed by notif: `notif daemon --remove-autostart` removes this file."

    public static func path(in paths: NotifPaths) -> String {
        Posix.join(paths.configHome, "autostart/notif-daemon.desktop")
    }

    /// The entry's text for the argv that starts the daemon. `TryExec=` names notif's own
    /// program, so a desktop login after notif was removed skips the entry instead of trying to
    /// start a missing program.
    public static func entry(command: [String]) -> String {
        """
        \(marker)
        [Desktop Entry]
        Type=Application
        Name=notif reminders
        Comment=Shows notif's daily reminders with its built-in scheduler while you are logged in
        TryExec=\(DesktopExec.stringEscaped(program(of: command)))
        Exec=\(DesktopExec.render(command))
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }

    /// The program an entry's argv runs: the first word after `/usr/bin/env` and its
    /// `NAME=VALUE` settings.
    static func program(of command: [String]) -> String {
        guard command.first == "/usr/bin/env" else { return command.first ?? "" }
        return command.dropFirst().first { !$0.contains("=") } ?? ""
    }

    /// Writes the entry (atomically; nothing when it is already exactly so). Returns whether it wrote.
    @discardableResult
    public static func install(command: [String], paths: NotifPaths) throws(FileError) -> Bool {
        let file = path(in: paths)
        let text = entry(command: command)
        if let current = try contents(file) {
            if String(decoding: current, as: UTF8.self) == text { return false }
            guard isNotifs(current) else {
                throw FileError("replace", file, reason: "it was not written by notif; rename or remove it")
            }
        }
        try FileIO.makeDirectory(Posix.directory(of: file))
        try AtomicFile.write(Array(text.utf8), to: file, mode: 0o644)
        return true
    }

    /// Removes notif's entry. Returns whether there was one; a file notif did not write is left alone (an error).
    @discardableResult
    public static func remove(paths: NotifPaths) throws(FileError) -> Bool {
        let file = path(in: paths)
        guard let current = try contents(file) else { return false }
        guard isNotifs(current) else {
            throw FileError("remove", file, reason: "it was not written by notif; remove it yourself if you want it gone")
        }
        try FileIO.remove(file)
        return true
    }

    /// What `removeIfNotifs` found.
    public enum Removal: Sendable { case removed, absent, notNotifs }

    /// Removes notif's entry; a file there that notif did not write is left alone and said so.
    public static func removeIfNotifs(paths: NotifPaths) throws(FileError) -> Removal {
        let file = path(in: paths)
        guard let current = try contents(file) else { return .absent }
        guard isNotifs(current) else { return .notNotifs }
        try FileIO.remove(file)
        return .removed
    }

    /// The entry file's bytes, nil when there is none. A file that is not the user's own is not
    /// read (it comes back empty, so never taken for notif's): another user could have written it.
    private static func contents(_ file: String) throws(FileError) -> [UInt8]? {
        guard let status = try FileStatus.of(file) else { return nil }
        guard status.owner == geteuid() else { return [] }
        return try FileIO.read(file, limit: 1 << 16)
    }

    private static func isNotifs(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).hasPrefix(marker + "\n")
    }
}

extension Autostart {
    /// The command notif's autostart entry in `configHome/autostart` starts (its `Exec=` words);
    /// nil when there is none or the file is not notif's.
    public static func command(configHome: String) -> [String]? {
        let file = path(in: NotifPaths(home: "/", configHome: configHome, stateHome: "/"))
        guard let bytes = try? contents(file), isNotifs(bytes) else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Exec=") }
        return line.map { CommandWords.desktopExec(String($0.dropFirst("Exec=".count))) }
    }
}
