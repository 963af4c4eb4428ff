import SharedLogic
import Storage

/// The configuration a scheduled entry belongs to: one settings file, named in entries by a
/// short hash of its path (`XDG_CONFIG_HOME=/srv/a notif …` and a plain `notif …` are two
/// configurations of one user, and each leaves the other's entries alone). Entries written
/// before entries carried a tag belong to the default configuration (the account's
/// `~/.config/notif/settings.json`), which takes them over on its next apply.
public struct ConfigurationID: Hashable, Sendable {
    /// 8 hex digits: `ShortHash` of the settings file's path with repeated slashes and `.` removed.
    public let tag: String
    /// The settings file it stands for.
    public let settingsPath: String
    /// Whether this is the account's default configuration, the owner of untagged entries.
    public let isDefault: Bool

    public init(settingsPath: String, isDefault: Bool) {
        self.settingsPath = settingsPath
        self.isDefault = isDefault
        tag = ShortHash.of(Self.normalized(settingsPath))
    }

    /// The configuration of `paths`: the default one when its config home is the account's
    /// `~/.config` (`accountHome` from the password database; HOME when unknown).
    public static func of(_ paths: NotifPaths, accountHome: String?) -> ConfigurationID {
        let defaultHome = Posix.join(accountHome ?? paths.home, ".config")
        return ConfigurationID(settingsPath: paths.settingsFile, isDefault: normalized(paths.configHome) == normalized(defaultHome))
    }

    /// `/a//b/./c/` → `/a/b/c` (`..` is kept: it may cross a link).
    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Whether an entry marked with `tag` (nil: untagged, from before) is this configuration's.
    public func owns(tag other: String?) -> Bool {
        other.map { $0 == tag } ?? isDefault
    }
}
