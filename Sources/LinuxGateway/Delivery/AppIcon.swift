import Storage

/// notif's icon for its notifications: the installed SVG by absolute path, else no icon. Never
/// a theme name: the notification service would look that up itself, in data directories
/// another user may have put an icon in. Also where notif's desktop entry is, for `gio launch`.
/// A file is taken only when it passes the trust rule (`TrustedPath`): a desktop entry another
/// user could write is a command the Settings button would run as this user.
public enum AppIcon {
    /// The desktop entry's id, sent as the `desktop-entry` hint so desktops group notif's
    /// notifications under its name and icon.
    public static let desktopEntry = "notif"
    static let iconPath = "icons/hicolor/scalable/apps/notif.svg"
    static let entryPath = "applications/notif.desktop"

    /// The data directories to look in, best first: the installed prefix (`PREFIX/bin/notif` →
    /// `PREFIX/share`), `$XDG_DATA_HOME` (or `~/.local/share`), then `$XDG_DATA_DIRS` (or
    /// `/usr/local/share:/usr/share`).
    public static func dataDirectories(executable: String?, lookup: (String) -> String?) -> [String] {
        var dirs: [String] = []
        if let executable {
            dirs.append(Posix.join(Posix.directory(of: Posix.directory(of: executable)), "share"))
        }
        if let home = lookup("XDG_DATA_HOME"), home.hasPrefix("/") {
            dirs.append(home)
        } else if let home = lookup("HOME"), home.hasPrefix("/") {
            dirs.append(Posix.join(home, ".local/share"))
        }
        let system = lookup("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        dirs += system.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// Why a file may not be used (`TrustedPath.problem`), or nil.
    public typealias Trust = (String) -> String?

    /// The icon to send: the first installed SVG's path that passes the trust rule, else none
    /// (an empty `app_icon`, as the notification spec has it).
    public static func icon(executable: String?, lookup: (String) -> String?, trust: Trust = { TrustedPath.problem($0) }) -> String {
        find(iconPath, executable: executable, lookup: lookup, trust: trust).path ?? ""
    }

    /// The installed desktop entry that passes the trust rule, if any; and the ones passed over
    /// before it, each with why (`PATH is not used: WHY`).
    public static func desktopEntryFile(executable: String?, lookup: (String) -> String?,
                                        trust: Trust = { TrustedPath.problem($0) }) -> (path: String?, skipped: [String]) {
        find(entryPath, executable: executable, lookup: lookup, trust: trust)
    }

    private static func find(_ relative: String, executable: String?, lookup: (String) -> String?, trust: Trust) -> (path: String?, skipped: [String]) {
        var skipped: [String] = []
        for dir in dataDirectories(executable: executable, lookup: lookup) {
            let path = Posix.join(dir, relative)
            guard (try? FileStatus.of(path))??.kind == .file else { continue }
            guard let problem = trust(path) else { return (path, skipped) }
            skipped.append("\(path) is not used: \(problem)")
        }
        return (nil, skipped)
    }
}
